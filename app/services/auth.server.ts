import { redirect } from "@remix-run/node";
import { z } from "zod";
import type { User } from "../../db/schema";
import type { Actor } from "../models/audit.server";
import { getLockout, recordSignIn, type LockoutReason } from "../models/login-attempt.server";
import { getSettings } from "../models/settings.server";
import { getUserById, verifyLogin } from "../models/user.server";
import { LOGIN_PATH, TWO_FACTOR_PATH } from "../utils/auth-paths";
import { warmCpuPool } from "../utils/cpu-pool.server";
import { apiError, isApiRequest } from "../utils/http.server";
import type { Role } from "../utils/roles";
import { clientAddress, readSessionToken, sessionCookieToken } from "./session.server";
import { checkSecondFactor, hasTwoFactor, mustEnrol } from "./two-factor.server";

export { clientAddress, LOGIN_PATH };

/** The bearer token of an API request (header only, never the query string). */
export function bearerToken(request: Request): string | undefined {
  const header = request.headers.get("Authorization");
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
}

/** The signed-in, active user of this request (bearer token or session cookie), or undefined. */
export async function getUser(request: Request): Promise<User | undefined> {
  const bearer = bearerToken(request);
  const token = bearer ?? (await sessionCookieToken(request));
  if (!token) return undefined;
  // The session notes where it was last seen from (the profile's list of sessions, issue 25).
  const userId = (await readSessionToken(token, { ip: clientAddress(request) }))?.user_id;
  if (!userId) return undefined;
  const user = await getUserById({ id: userId });
  if (!user || user.is_active !== 1) return undefined;
  // An API client (a script, an app) is there to write: have the CPU worker (jsdom) ready before
  // its first save. Staff in the browser get it when they open a screen that saves markdown
  // (warmCpuPool's callers), not for reading lists: a staff member who only reads costs readers
  // no worker (issue 30 item 4).
  if (bearer) warmCpuPool();
  return user;
}

/**
 * The signed-in person as models take them (`actor`): their row plus the address of this request,
 * so a model can record who did what from where (the audit log) without seeing the Request.
 */
export type StaffUser = User & Pick<Actor, "ip">;

export const ENROL_FIRST = "Спершу налаштуйте двофакторну перевірку: адміністратор сайту вимагає її для вашої ролі.";

/**
 * The signed-in user (with the request's address); otherwise a redirect to the login page
 * (screens) or 401 (API). A person whom Settings → Security requires to use a second factor and
 * who has not enrolled gets nothing else until they do: screens send them to enrolment, the API
 * answers 403 (docs/decisions/023). Only the enrolment screen itself and sign-out pass
 * `{ enrolling: true }`.
 */
export async function requireUser(request: Request, { enrolling = false }: { enrolling?: boolean } = {}): Promise<StaffUser> {
  const user = await getUser(request);
  if (!user) {
    if (isApiRequest(request)) throw apiError(401, "Немає доступу: увійдіть знову");
    const url = new URL(request.url);
    const redirectTo = `${url.pathname}${url.search}`;
    throw redirect(`${LOGIN_PATH}?${new URLSearchParams({ redirectTo })}`);
  }
  if (!enrolling && (await mustEnrol(user))) {
    if (isApiRequest(request)) throw apiError(403, ENROL_FIRST);
    throw redirect(TWO_FACTOR_PATH);
  }
  return { ...user, ip: actorAddress(request) };
}

/** The signed-in user when their role is one of roles; otherwise 403 (DESIGN §5). */
export async function requireRole(request: Request, roles: readonly Role[]): Promise<StaffUser> {
  const user = await requireUser(request);
  if (roles.includes(user.role)) return user;
  if (isApiRequest(request)) throw apiError(403, "Заборонено: недостатньо прав");
  throw new Response("Access Denied", { status: 403, statusText: "Forbidden" });
}

/** The client address for an actor and the audit log, or null when unknown. */
export function actorAddress(request: Request): string | null {
  const address = clientAddress(request);
  return address === "unknown" ? null : address;
}

/**
 * A password that was right. `next` says what sign-in still needs: nothing (`signed-in`), the
 * person's second-factor code (`code`: nothing is recorded as a success yet, so failed codes and
 * failed passwords add up to one lockout), or enrolment, which Settings → Security requires of them
 * (`enrol`).
 */
export type LoginResult =
  { ok: true; user: User; next: "signed-in" | "code" | "enrol" } | { ok: false; status: 401 | 403 | 429; message: string; retryAfter?: number };
export type Refusal = Extract<LoginResult, { ok: false }>;

export const LOGIN_FAILED = "Невірне ім'я користувача або пароль";

const REQUIRED = "Обов'язкове поле";
const loginText = () => z.string({ required_error: REQUIRED, invalid_type_error: "Має бути рядком" });

/**
 * The sign-in form of the login screen and of POST /api/auth/login. Only "present and not huge":
 * the account rules (UsernameSchema, PasswordSchema) are not applied here, so a name or password
 * that breaks them gets the same 401 as a wrong one and the answer says nothing about accounts.
 */
export const LoginSchema = z.object({
  username: loginText().trim().min(1, REQUIRED).max(254),
  password: loginText().min(1, REQUIRED).max(1024),
});

/**
 * One sign-in check for the login screen and POST /api/auth/login: lockout first, then the
 * password (constant work whether or not the user exists), then the account state.
 */
export async function authenticate({ username, password, request }: { username: string; password: string; request: Request }): Promise<LoginResult> {
  const ip = clientAddress(request);
  const locked = await lockedOut(username, ip);
  if (locked) return locked;
  const user = await verifyLogin({ username, password });
  const via = isApiRequest(request) ? "api" : "form";
  if (!user) {
    // The attempt and the audit entry in one transaction (the password goes no further).
    await recordSignIn({ username, ip, outcome: "credentials", via });
    return { ok: false, status: 401, message: LOGIN_FAILED };
  }
  if (user.is_active !== 1) {
    await recordSignIn({ username, ip, user, outcome: "inactive", via });
    return { ok: false, status: 403, message: ACCOUNT_OFF };
  }
  // A right password alone does not end the failures of someone with a second factor: only their
  // code does (else the password would reset the count and codes could be guessed for ever).
  if (await hasTwoFactor({ userId: user.id })) return { ok: true, user, next: "code" };
  await recordSignIn({ username, ip, user, outcome: "ok", via });
  if (via === "api") warmCpuPool();
  return { ok: true, user, next: (await mustEnrol(user)) ? "enrol" : "signed-in" };
}

const ACCOUNT_OFF = "Обліковий запис вимкнено. Зверніться до адміністратора.";
const CODE_FAILED = "Код не підійшов: він невірний, застарів або вже був використаний. Введіть новий код із застосунку або код відновлення.";
const CODE_UNREADABLE =
  "Код із застосунку зараз не можна перевірити: ключ двофакторної перевірки на сервері більше не читається. Увійдіть із кодом відновлення й налаштуйте перевірку знову.";

/** The lockout's refusal for this username from this address (SECURITY.md 'Lockout'), or undefined. */
async function lockedOut(username: string, ip: string): Promise<Refusal | undefined> {
  const { max_login_attempts } = await getSettings("security");
  const { wait, reason } = await getLockout({ username, ip, max: max_login_attempts });
  return wait > 0 ? lockoutRefusal(wait, reason) : undefined;
}

function lockoutRefusal(wait: number, reason: LockoutReason | undefined): Refusal {
  const minutes = Math.ceil(wait / 60);
  const why = reason === "username" ? " для цього користувача: дозволено одну спробу на хвилину" : "";
  return { ok: false, status: 429, retryAfter: wait, message: `Забагато невдалих спроб входу${why}. Спробуйте знову через ${minutes} хв.` };
}

/**
 * The second step of a sign-in (the form's code screen and `otp` of POST /api/auth/login): the same
 * lockout as the password, then the code; a wrong code counts as a failed sign-in of that username
 * from that address, a right one as the success that ends the count.
 */
export async function verifySecondStep({ user, code, request }: { user: User; code: string; request: Request }): Promise<{ ok: true } | Refusal> {
  const ip = clientAddress(request);
  const locked = await lockedOut(user.username, ip);
  if (locked) return locked;
  if (user.is_active !== 1) return { ok: false, status: 403, message: ACCOUNT_OFF };
  const outcome = await checkSecondFactor({ userId: user.id, code });
  // The attempt (a wrong code counts like a wrong password), last_login and the audit entry.
  await recordSignIn({ username: user.username, ip, user, outcome: outcome === "ok" ? "ok" : "code", via: isApiRequest(request) ? "api" : "form" });
  if (outcome !== "ok") return { ok: false, status: 401, message: outcome === "unreadable" ? CODE_UNREADABLE : CODE_FAILED };
  if (isApiRequest(request)) warmCpuPool();
  return { ok: true };
}
