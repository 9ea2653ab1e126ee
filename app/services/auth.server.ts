import { redirect } from "@remix-run/node";
import { getClientIPAddress } from "remix-utils/get-client-ip-address";
import { z } from "zod";
import type { User } from "../../db/schema";
import type { Actor } from "../models/audit.server";
import { getLockout, recordSignIn } from "../models/login-attempt.server";
import { getSettings } from "../models/settings.server";
import { getUserById, verifyLogin } from "../models/user.server";
import { warmCpuPool } from "../utils/cpu-pool.server";
import { apiError, isApiRequest } from "../utils/http.server";
import type { Role } from "../utils/roles";
import { getSession, readSessionToken } from "./session.server";

export const LOGIN_PATH = "/admin/login";

/** The bearer token of an API request (header only, never the query string). */
export function bearerToken(request: Request): string | undefined {
  const header = request.headers.get("Authorization");
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
}

/** The signed-in, active user of this request (bearer token or session cookie), or undefined. */
export async function getUser(request: Request): Promise<User | undefined> {
  const token = bearerToken(request);
  let userId: string | undefined;
  if (token) {
    userId = (await readSessionToken(token))?.user_id;
  } else if (request.headers.get("Cookie")?.includes("__session=")) {
    userId = (await getSession(request)).get("userId");
  }
  if (!userId) return undefined;
  const user = await getUserById({ id: userId });
  if (!user || user.is_active !== 1) return undefined;
  // Staff are at work: have the CPU worker (jsdom) ready before their first save (cpu-pool.server.ts).
  warmCpuPool();
  return user;
}

/**
 * The signed-in person as models take them (`actor`): their row plus the address of this request,
 * so a model can record who did what from where (the audit log) without seeing the Request.
 */
export type StaffUser = User & Pick<Actor, "ip">;

/** The signed-in user (with the request's address); otherwise a redirect to the login page (screens) or 401 (API). */
export async function requireUser(request: Request): Promise<StaffUser> {
  const user = await getUser(request);
  if (user) return { ...user, ip: actorAddress(request) };
  if (isApiRequest(request)) throw apiError(401, "Немає доступу: увійдіть знову");
  const url = new URL(request.url);
  const redirectTo = `${url.pathname}${url.search}`;
  throw redirect(`${LOGIN_PATH}?${new URLSearchParams({ redirectTo })}`);
}

/** The signed-in user when their role is one of roles; otherwise 403 (DESIGN §5). */
export async function requireRole(request: Request, roles: readonly Role[]): Promise<StaffUser> {
  const user = await requireUser(request);
  if (roles.includes(user.role)) return user;
  if (isApiRequest(request)) throw apiError(403, "Заборонено: недостатньо прав");
  throw new Response("Access Denied", { status: 403, statusText: "Forbidden" });
}

/** The client address (the `x-client-ip` server.ts sets from the trust-proxy setting), "unknown" when none: lockout and view keys. */
export function clientAddress(request: Request): string {
  return getClientIPAddress(request) ?? "unknown";
}

/** The client address for an actor and the audit log, or null when unknown. */
export function actorAddress(request: Request): string | null {
  return getClientIPAddress(request) ?? null;
}

export type LoginResult = { ok: true; user: User } | { ok: false; status: 401 | 403 | 429; message: string; retryAfter?: number };

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
  const { max_login_attempts } = await getSettings("security");
  const { wait, reason } = await getLockout({ username, ip, max: max_login_attempts });
  if (wait > 0) {
    const minutes = Math.ceil(wait / 60);
    const why = reason === "username" ? " для цього користувача: дозволено одну спробу на хвилину" : "";
    return {
      ok: false,
      status: 429,
      retryAfter: wait,
      message: `Забагато невдалих спроб входу${why}. Спробуйте знову через ${minutes} хв.`,
    };
  }
  const user = await verifyLogin({ username, password });
  const outcome = !user ? "credentials" : user.is_active !== 1 ? "inactive" : "ok";
  // The attempt, last_login and the audit entry in one transaction (the password goes no further).
  await recordSignIn({ username, ip, user, outcome, via: isApiRequest(request) ? "api" : "form" });
  if (!user) return { ok: false, status: 401, message: LOGIN_FAILED };
  if (outcome === "inactive") {
    return { ok: false, status: 403, message: "Обліковий запис вимкнено. Зверніться до адміністратора." };
  }
  warmCpuPool();
  return { ok: true, user };
}
