import { randomBytes } from "node:crypto";
import { createCookie, type Cookie } from "@remix-run/node";
import type { User } from "../../db/schema";
import { deleteSignInChallenge, findSignInChallenge, insertSignInChallenge, type SignInChallenge } from "../models/sign-in-challenge.server";
import { getUserById } from "../models/user.server";
import { getEnv } from "../utils/env.server";
import { clientAddress } from "./session.server";

// Two-step sign-in on the screens (docs/decisions/023): after the right password of a person with a
// second factor the browser gets only the `__signin` cookie, a signed random token whose SHA-256
// names a row of sign_in_challenges, good for five minutes and for the code screen only; the session
// is made after the code. Nothing in between is a session: every other screen still sees nobody.

const CHALLENGE_MS = 5 * 60_000;

let cookie: { secret: string; cookie: Cookie } | undefined;
function challengeCookie(): Cookie {
  const env = getEnv();
  if (cookie?.secret !== env.SESSION_SECRET) {
    cookie = {
      secret: env.SESSION_SECRET,
      cookie: createCookie("__signin", {
        httpOnly: true,
        sameSite: "lax",
        path: "/admin",
        secure: env.PUBLIC_URL.startsWith("https://"),
        secrets: [env.SESSION_SECRET],
        maxAge: CHALLENGE_MS / 1000,
      }),
    };
  }
  return cookie.cookie;
}

/** Opens the second step for `user` and answers the Set-Cookie header that carries it. */
export async function beginSecondStep(request: Request, user: User, redirectTo: string): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await insertSignInChallenge({
    token,
    challenge: { userId: user.id, redirectTo, ip: clientAddress(request), userAgent: request.headers.get("User-Agent")?.slice(0, 300) ?? null },
    expiresAt: new Date(Date.now() + CHALLENGE_MS).toISOString(),
  });
  return challengeCookie().serialize(token);
}

/** The sign-in this request is half-way through (token, challenge, active user), or undefined. */
export async function pendingSignIn(request: Request): Promise<{ token: string; challenge: SignInChallenge; user: User } | undefined> {
  const header = request.headers.get("Cookie");
  if (!header?.includes("__signin=")) return undefined;
  const token: unknown = await challengeCookie().parse(header);
  if (typeof token !== "string" || !token || token.length > 200) return undefined;
  const challenge = await findSignInChallenge({ token, now: new Date().toISOString() });
  if (!challenge) return undefined;
  const user = await getUserById({ id: challenge.userId });
  return user && user.is_active === 1 ? { token, challenge, user } : undefined;
}

/** Spends the challenge after the second step; true only for the request that spent it. */
export function spendSecondStep(token: string): Promise<boolean> {
  return deleteSignInChallenge({ token });
}

/** The Set-Cookie header that removes the `__signin` cookie. */
export function clearSecondStepCookie(): Promise<string> {
  return challengeCookie().serialize("", { maxAge: 0 });
}
