import { randomUUID } from "node:crypto";
import bcrypt from "bcryptjs";
import { sql } from "kysely";
import { z } from "zod";
import { db, writeTransaction, type DB } from "../../db/index";
import type { User } from "../../db/schema";
import { lowerCase } from "../../db/sql/text";
import { isCommonPassword } from "../utils/common-passwords.server";
import { DomainError } from "../utils/errors";
import { ROLES, type Role } from "../utils/roles";
import { recordAudit, type Actor } from "./audit.server";
import { revokeUserSessions } from "./session.server";
import { reassignArticles } from "./user-articles.server";

// SECURITY.md 'Passwords': cost >= 10; bcrypt ignores bytes past 72, so longer is refused.
const BCRYPT_COST = 10;

export const UsernameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(3, "Від 3 до 50 символів")
  .max(50, "Від 3 до 50 символів")
  .regex(/^[a-z0-9_.-]+$/, "Лише латинські літери, цифри та _ . -");
export const PasswordSchema = z
  .string()
  .min(8, "Пароль занадто короткий")
  .refine((value) => Buffer.byteLength(value, "utf8") <= 72, "Пароль задовгий (не більше 72 байтів)");
/**
 * A password someone chooses now (a new user, a changed password): also not a common one.
 * The demo seed and ADMIN_PASSWORD take PasswordSchema only (README: the demo passwords are known).
 */
export const NewPasswordSchema = PasswordSchema.refine(
  (value) => !isCommonPassword(value),
  "Цей пароль надто поширений і легко вгадується: оберіть інший (наприклад, кілька випадкових слів)",
);

/** The public shape of a user (SPEC §3 'User'); never includes the password hash. */
export interface UserView {
  id: string;
  username: string;
  email: string;
  role: Role;
  is_active: boolean;
  last_login: string | null;
  created_at: string;
  full_name: string | null;
  profile: { name: string | null; bio: string | null; avatar: string | null };
}

export function toUserView(user: User): UserView {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    role: user.role,
    is_active: user.is_active === 1,
    last_login: user.last_login,
    created_at: user.created_at,
    full_name: user.name,
    profile: { name: user.name, bio: user.bio, avatar: user.avatar },
  };
}

export async function getUserById({ id }: { id: string }, executor: DB = db): Promise<User | undefined> {
  return executor.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function getUserByUsername({ username }: { username: string }, executor: DB = db) {
  return executor.selectFrom("users").selectAll().where("username", "=", username.trim().toLowerCase()).executeTakeFirst();
}

export async function countUsers(executor: DB = db): Promise<number> {
  const row = await executor
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

export async function createUser(
  input: { username: string; email: string; password: string; role: Role; name?: string | null; bio?: string | null },
  executor: DB = db,
): Promise<User> {
  const now = new Date().toISOString();
  const user = {
    id: randomUUID(),
    username: UsernameSchema.parse(input.username),
    email: input.email.trim(),
    password_hash: await hashPassword(PasswordSchema.parse(input.password)),
    role: input.role,
    is_active: 1,
    name: input.name ?? null,
    bio: input.bio ?? null,
    avatar: null,
    slug: null,
    links: null,
    last_login: null,
    created_at: now,
    updated_at: now,
  };
  await executor.insertInto("users").values(user).execute();
  return user;
}

// Compared against when the username is unknown, so both failures cost one bcrypt check
// (SECURITY.md 'No user enumeration'; measured by `npm run security:timing`, scripts/login-timing.ts).
const DUMMY_HASH = bcrypt.hashSync("not-a-real-password", BCRYPT_COST);

/** The user whose username and password match, or undefined; timing does not reveal which failed. */
export async function verifyLogin({ username, password }: { username: string; password: string }) {
  const user = await getUserByUsername({ username });
  const ok = await bcrypt.compare(password, user?.password_hash ?? DUMMY_HASH);
  return ok && user ? user : undefined;
}

/** Whether `password` is the user's (a person confirming a change of their own, e.g. turning off two-factor). */
export function passwordMatches({ user, password }: { user: User; password: string }): Promise<boolean> {
  return bcrypt.compare(password, user.password_hash);
}

export async function recordLogin({ id }: { id: string }): Promise<void> {
  await db.updateTable("users").set({ last_login: new Date().toISOString() }).where("id", "=", id).execute();
}

// ---------------------------------------------------------------------------------------------
// User management (SPEC §2 'Users', DESIGN §5): one schema and one function per operation, used
// by the /admin/users screen and the /api/users endpoints alike.

const REQUIRED = "Обов'язкове поле";
const requiredText = (max: number) => z.string({ required_error: REQUIRED, invalid_type_error: REQUIRED }).trim().min(1, REQUIRED).max(max);
const EmailSchema = requiredText(254).email("Невірний формат email");
const NameSchema = z
  .string()
  .trim()
  .max(100, "Не більше 100 символів")
  .nullish()
  .transform((v) => v || null);
const BioSchema = z
  .string()
  .trim()
  .max(1000, "Не більше 1000 символів")
  .nullish()
  .transform((v) => v || null);
const RoleSchema = z.enum(ROLES, { errorMap: () => ({ message: "Оберіть роль: admin, editor або reporter" }) });

export const UserCreateSchema = z.object({
  username: requiredText(50).pipe(UsernameSchema),
  email: EmailSchema,
  full_name: NameSchema,
  role: RoleSchema,
  password: z.string({ required_error: REQUIRED }).min(1, REQUIRED).pipe(NewPasswordSchema),
});
export type UserCreate = z.infer<typeof UserCreateSchema>;

export const UserUpdateSchema = z.object({
  email: EmailSchema.optional(),
  full_name: NameSchema.optional(),
  bio: BioSchema.optional(),
  role: RoleSchema.optional(),
  is_active: z.boolean({ invalid_type_error: "Має бути true або false" }).optional(),
  password: z.string().min(1, REQUIRED).pipe(NewPasswordSchema).optional(),
});
export type UserUpdate = z.infer<typeof UserUpdateSchema>;

export async function listUsers({ skip = 0, limit = 100 }: { skip?: number; limit?: number } = {}) {
  const [rows, total] = await Promise.all([
    db.selectFrom("users").selectAll().orderBy("created_at").orderBy("username").offset(skip).limit(limit).execute(),
    countUsers(),
  ]);
  return { users: rows, total };
}

async function requireTarget(trx: DB, id: string): Promise<User> {
  const user = await getUserById({ id }, trx);
  if (!user) throw new DomainError(404, "Користувача не знайдено");
  return user;
}

/** Throws when removing `target` from the active admins would leave none. */
async function keepAnActiveAdmin(trx: DB, target: User, message: string) {
  if (target.role !== "admin" || target.is_active !== 1) return;
  const others = await trx
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("role", "=", "admin")
    .where("is_active", "=", 1)
    .where("id", "!=", target.id)
    .executeTakeFirstOrThrow();
  if (Number(others.n) === 0) throw new DomainError(409, message);
}

export const EMAIL_TAKEN = "Цей email уже використовує інший користувач";

/**
 * 409 when another user has this email whatever its case (issue 31 item 14; migration 000030 adds
 * a unique index where the existing data allows). Checked inside the write transaction.
 */
async function refuseTakenEmail(trx: DB, email: string, exceptId?: string) {
  const twin = await trx
    .selectFrom("users")
    .select("id")
    .where(lowerCase(sql.ref("email")), "=", email.trim().toLowerCase())
    .$if(Boolean(exceptId), (qb) => qb.where("id", "!=", exceptId!))
    .executeTakeFirst();
  if (twin) throw new DomainError(409, EMAIL_TAKEN, "email");
}

/** Creates a staff account; 409 when the username or the email is taken. */
export async function addUser(input: UserCreate, actor: Actor): Promise<User> {
  const passwordHash = await hashPassword(input.password);
  return writeTransaction(async (trx) => {
    if (await getUserByUsername({ username: input.username }, trx)) {
      throw new DomainError(409, "Користувач із таким іменем уже існує", "username");
    }
    await refuseTakenEmail(trx, input.email);
    const now = new Date().toISOString();
    const user: User = {
      id: randomUUID(),
      username: input.username,
      email: input.email,
      password_hash: passwordHash,
      role: input.role,
      is_active: 1,
      name: input.full_name,
      bio: null,
      avatar: null,
      slug: null,
      links: null,
      last_login: null,
      created_at: now,
      updated_at: now,
    };
    await trx.insertInto("users").values(user).execute();
    await recordAudit(trx, { actor, action: "user.create", object: userObject(user), details: { role: user.role } });
    return user;
  });
}

const userObject = (user: Pick<User, "id" | "username">) => ({ type: "user" as const, id: user.id, label: user.username });

/**
 * Changes a user. An admin cannot deactivate themselves; the last active admin can be neither
 * demoted nor deactivated. Deactivation or a new password ends the user's other sessions.
 */
export async function updateUser({ actor, actorToken, id, changes }: { actor: Actor; actorToken?: string; id: string; changes: UserUpdate }): Promise<User> {
  const passwordHash = changes.password ? await hashPassword(changes.password) : undefined;
  const updated = await writeTransaction(async (trx) => {
    const target = await requireTarget(trx, id);
    if (changes.is_active === false && target.id === actor.id) {
      throw new DomainError(403, "Не можна деактивувати власний обліковий запис", "is_active");
    }
    if (changes.is_active === false) await keepAnActiveAdmin(trx, target, "Не можна деактивувати останнього активного адміністратора");
    if (changes.role && changes.role !== "admin") {
      await keepAnActiveAdmin(trx, target, "Не можна змінити роль останнього активного адміністратора");
    }
    if (changes.email !== undefined) await refuseTakenEmail(trx, changes.email, id);
    await trx
      .updateTable("users")
      .set({
        ...(changes.email !== undefined && { email: changes.email }),
        ...(changes.full_name !== undefined && { name: changes.full_name }),
        ...(changes.bio !== undefined && { bio: changes.bio }),
        ...(changes.role !== undefined && { role: changes.role }),
        ...(changes.is_active !== undefined && { is_active: changes.is_active ? 1 : 0 }),
        ...(passwordHash && { password_hash: passwordHash }),
        updated_at: new Date().toISOString(),
      })
      .where("id", "=", id)
      .execute();
    const after = await requireTarget(trx, id);
    await auditUserChanges(trx, { actor, before: target, after, passwordChanged: Boolean(passwordHash) });
    return after;
  });
  if (changes.is_active === false || passwordHash) {
    await revokeUserSessions({ userId: id, except: id === actor.id ? actorToken : undefined });
  }
  return updated;
}

/**
 * The audit entries of one user change: one per kind of change it made (role, activation, password,
 * other fields by name), none when it changed nothing. Never a password or its hash.
 */
async function auditUserChanges(trx: DB, { actor, before, after, passwordChanged }: { actor: Actor; before: User; after: User; passwordChanged: boolean }) {
  const object = userObject(after);
  if (before.role !== after.role) {
    await recordAudit(trx, { actor, action: "user.role_change", object, details: { from: before.role, to: after.role } });
  }
  if (before.is_active !== after.is_active) {
    await recordAudit(trx, { actor, action: after.is_active === 1 ? "user.activate" : "user.deactivate", object });
  }
  if (passwordChanged) await recordAudit(trx, { actor, action: "user.password_change", object });
  const fields = (
    [
      ["email", "email"],
      ["name", "full_name"],
      ["bio", "bio"],
    ] as const
  )
    .filter(([column]) => before[column] !== after[column])
    .map(([, field]) => field);
  if (fields.length) await recordAudit(trx, { actor, action: "user.update", object, details: { fields } });
}

/** Deletes a user (their articles stay, without an author). Not yourself, not the last admin. */
export async function deleteUser({ actor, id, reassignTo }: { actor: Actor; id: string; reassignTo?: string }): Promise<void> {
  await writeTransaction(async (trx) => {
    const target = await requireTarget(trx, id);
    if (target.id === actor.id) throw new DomainError(403, "Не можна видалити власний обліковий запис");
    await keepAnActiveAdmin(trx, target, "Не можна видалити останнього активного адміністратора");
    // Issue 31 item 4: their articles go to someone real first (user-articles.server.ts).
    const moved = await reassignArticles(trx, target, reassignTo);
    await trx.deleteFrom("users").where("id", "=", id).execute();
    const details: Record<string, string | number> = { role: target.role };
    if (moved.to) Object.assign(details, { articles: moved.count, reassigned_to: moved.to.username });
    await recordAudit(trx, { actor, action: "user.delete", object: userObject(target), details });
  });
}

// ---------------------------------------------------------------------------------------------
// My profile (issue 17): every signed-in person changes their own name, email and password.

export const ProfileSchema = z
  .object({
    full_name: NameSchema,
    email: EmailSchema,
    current_password: z.string().max(200).optional().default(""),
    new_password: z
      .string()
      .optional()
      .transform((v) => v || undefined)
      .pipe(NewPasswordSchema.optional()),
    // Issue 31 item 14: a new password is typed twice.
    new_password_repeat: z.string().max(200).optional().default(""),
  })
  .refine((p) => !p.new_password || p.new_password === p.new_password_repeat, {
    message: "Паролі не збігаються: введіть новий пароль ще раз так само",
    path: ["new_password_repeat"],
  });
export type ProfileChanges = z.infer<typeof ProfileSchema>;

/**
 * Changes the signed-in user's own profile. A new email or password needs the current password;
 * a new password ends every other session of theirs (the one in use, `sessionToken`, stays).
 */
export async function updateOwnProfile({ user, sessionToken, changes }: { user: User & Actor; sessionToken?: string; changes: ProfileChanges }): Promise<User> {
  const emailChanged = changes.email !== user.email;
  if (changes.new_password || emailChanged) {
    if (!changes.current_password) {
      throw new DomainError(422, "Введіть поточний пароль, щоб змінити email або пароль", "current_password");
    }
    if (!(await bcrypt.compare(changes.current_password, user.password_hash))) {
      throw new DomainError(422, "Поточний пароль невірний", "current_password");
    }
  }
  return updateUser({
    actor: user,
    actorToken: sessionToken,
    id: user.id,
    changes: { full_name: changes.full_name, email: changes.email, ...(changes.new_password && { password: changes.new_password }) },
  });
}
