import { data, redirect } from "@remix-run/node";
import { safePath } from "../utils/safe-path";
import { getSession, sessionStorage } from "./session.server";

// Flash messages of the newsroom screens: feedback after a redirect travels on the session
// (STYLE.md 'A route module'), never in the URL.

/** Redirects to `to` with a one-time message for the next page. */
export async function redirectWithFlash(request: Request, to: string, message: string) {
  const session = await getSession(request);
  session.flash("flash", message);
  return redirect(to, { headers: { "Set-Cookie": await sessionStorage().commitSession(session) } });
}

/** The pending flash message (consumed) and the header that clears it. */
export async function takeFlash(request: Request): Promise<{ flash: string | null; headers?: HeadersInit }> {
  const session = await getSession(request);
  const flash = session.get("flash") ?? null;
  if (!flash) return { flash: null };
  return { flash, headers: { "Set-Cookie": await sessionStorage().commitSession(session) } };
}

/** A same-site path under `prefix` taken from a form field, else `fallback` (no open redirects). */
export function backTo(value: FormDataEntryValue | null, prefix: string, fallback: string): string {
  return safePath(value, fallback, prefix);
}

export { data };
