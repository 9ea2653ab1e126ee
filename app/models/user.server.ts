import { randomUUID } from "node:crypto";
import bcrypt from "bcryptjs";
import { z } from "zod";
import { db, type DB } from "../../db/index";
import type { Role, User } from "../../db/schema";

export const ROLES = ["admin", "editor", "reporter"] as const satisfies readonly Role[];

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
  return executor
    .selectFrom("users")
    .selectAll()
    .where("username", "=", username.trim().toLowerCase())
    .executeTakeFirst();
}

export async function countUsers(executor: DB = db): Promise<number> {
  const row = await executor.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
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
    last_login: null,
    created_at: now,
    updated_at: now,
  };
  await executor.insertInto("users").values(user).execute();
  return user;
}

// Compared against when the username is unknown, so both failures cost one bcrypt check
// (SECURITY.md 'No user enumeration').
const DUMMY_HASH = bcrypt.hashSync("not-a-real-password", BCRYPT_COST);

/** The user whose username and password match, or undefined; timing does not reveal which failed. */
export async function verifyLogin({ username, password }: { username: string; password: string }) {
  const user = await getUserByUsername({ username });
  const ok = await bcrypt.compare(password, user?.password_hash ?? DUMMY_HASH);
  return ok && user ? user : undefined;
}

export async function recordLogin({ id }: { id: string }): Promise<void> {
  await db.updateTable("users").set({ last_login: new Date().toISOString() }).where("id", "=", id).execute();
}
