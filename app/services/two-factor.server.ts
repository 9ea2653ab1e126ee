import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomInt } from "node:crypto";
import { generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";
import type { User } from "../../db/schema";
import type { Actor } from "../models/audit.server";
import { getSettings } from "../models/settings.server";
import {
  cancelEnrolment,
  claimTimeStep,
  confirmEnrolment,
  countUnusedRecoveryCodes,
  getTwoFactor,
  hasTwoFactor,
  replaceRecoveryCodes,
  startEnrolment,
  spendRecoveryCode,
} from "../models/two-factor.server";
import { getEnv } from "../utils/env.server";
import { TWO_FACTOR_ROLES } from "../utils/settings-options";

// The second factor (SECURITY.md 'Second factor' [ASVS 2.8], docs/decisions/023): TOTP after
// RFC 6238 through otplib (SHA-1, 6 digits, 30 s, one step either side, each step used once), ten
// single-use recovery codes, and the rule of Settings → Security on who must use it.

const PERIOD = 30;
// ±1 time step (RFC 6238 §5.2 allows a step of drift); otplib counts the tolerance in seconds.
const TOLERANCE_SECONDS = PERIOD;
const RECOVERY_CODE_COUNT = 10;

// --- The key at rest ----------------------------------------------------------------------------
// The TOTP key is sealed with AES-256-GCM under a key derived (HKDF) from SESSION_SECRET, bound to
// its user id: a copy of the database alone (a backup, a pg_dump) does not hand the keys out, and a
// sealed key moved to another user's row does not open.

let sealing: { secret: string; key: Buffer } | undefined;
function sealingKey(): Buffer {
  const secret = getEnv().SESSION_SECRET;
  if (sealing?.secret !== secret) {
    sealing = { secret, key: Buffer.from(hkdfSync("sha256", secret, "nauka-ua/two-factor", "totp-secret v1", 32)) };
  }
  return sealing.key;
}

/** The TOTP key of `userId`, sealed for storage. */
function sealSecret(secret: string, userId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealingKey(), iv);
  cipher.setAAD(Buffer.from(userId));
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), body].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

/** The TOTP key from its sealed form, or undefined when it cannot be opened (another SESSION_SECRET, another user's row). */
function openSecret(sealed: string, userId: string): string | undefined {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || !body) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", sealingKey(), Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(userId));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}

// --- Codes --------------------------------------------------------------------------------------

/** A 6-digit code typed with spaces or dashes ("123 456") is still a code. */
const digitsOf = (code: string) => code.replace(/[\s-]/g, "");
const isTotpCode = (code: string) => /^\d{6}$/.test(digitsOf(code));

/** The time step a code matches now (±1 step, later than `after`), or undefined. */
async function matchingStep({ secret, code, after }: { secret: string; code: string; after: number | null }): Promise<number | undefined> {
  try {
    const result = await verify({
      secret,
      token: digitsOf(code),
      period: PERIOD,
      epochTolerance: TOLERANCE_SECONDS,
      ...(after !== null && { afterTimeStep: after }),
    });
    return result.valid && "timeStep" in result ? result.timeStep : undefined;
  } catch {
    // otplib refuses an `afterTimeStep` beyond the window (a clock moved back): no code matches.
    return undefined;
  }
}

// Recovery codes: 16 characters of Crockford's base32 (80 random bits), shown as xxxx-xxxx-xxxx-xxxx.
// With 80 bits a plain SHA-256 is safe to keep (no password-style stretching is needed), and it
// does not depend on SESSION_SECRET, so the codes still work if that secret ever changes.
const RECOVERY_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

function newRecoveryCode(): string {
  const chars = Array.from({ length: 16 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join("");
  return chars.match(/.{4}/g)!.join("-");
}

/** A recovery code as typed (any case, spaces, dashes, i/l for 1, o for 0) → its stored hash. */
function recoveryCodeHash(code: string): string {
  const normal = code
    .toLowerCase()
    .replace(/[il]/g, "1")
    .replace(/o/g, "0")
    .replace(/[^0-9a-z]/g, "");
  return createHash("sha256").update(normal).digest("hex");
}

function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  return { codes, hashes: codes.map(recoveryCodeHash) };
}

// --- Who must use it ----------------------------------------------------------------------------

/** Whether Settings → Security requires a second factor of this role. */
export async function twoFactorRequiredFor(role: User["role"]): Promise<boolean> {
  const { two_factor_required } = await getSettings("security");
  return TWO_FACTOR_ROLES[two_factor_required].includes(role);
}

/** True when the settings require a second factor of this person and they have not enrolled yet. */
export async function mustEnrol(user: User): Promise<boolean> {
  if (!(await twoFactorRequiredFor(user.role))) return false;
  return !(await hasTwoFactor({ userId: user.id }));
}

export { hasTwoFactor };

// --- Sign-in ------------------------------------------------------------------------------------

/**
 * Checks a second-factor code of an enrolled user and spends it: a 6-digit TOTP code (each time
 * step once) or a recovery code (each once). `unreadable`: the key cannot be opened (SESSION_SECRET
 * changed), so only a recovery code can sign this person in.
 */
export async function checkSecondFactor({ userId, code }: { userId: string; code: string }): Promise<"ok" | "wrong" | "unreadable"> {
  if (!isTotpCode(code)) return (await spendRecoveryCode({ userId, codeHash: recoveryCodeHash(code) })) ? "ok" : "wrong";
  const row = await getTwoFactor({ userId });
  if (!row?.enabled_at) return "wrong";
  const secret = openSecret(row.secret, userId);
  if (!secret) return "unreadable";
  const step = await matchingStep({ secret, code, after: row.last_step });
  if (step === undefined) return "wrong";
  return (await claimTimeStep({ userId, step })) ? "ok" : "wrong";
}

// --- The profile's screen -----------------------------------------------------------------------

export type TwoFactorState =
  | { state: "off"; required: boolean }
  | { state: "enrolling"; required: boolean; key: string; qr: string }
  | { state: "on"; required: boolean; since: string; remaining: number; readable: boolean };

/** What the two-factor screen shows this person: off, half-way through enrolment (with the key and its QR code) or on. */
export async function twoFactorState(user: User): Promise<TwoFactorState> {
  const required = await twoFactorRequiredFor(user.role);
  const row = await getTwoFactor({ userId: user.id });
  if (row?.enabled_at) {
    return {
      state: "on",
      required,
      since: row.enabled_at,
      remaining: await countUnusedRecoveryCodes({ userId: user.id }),
      readable: openSecret(row.secret, user.id) !== undefined,
    };
  }
  const secret = row && openSecret(row.secret, user.id);
  if (!secret) return { state: "off", required };
  const { site_title } = await getSettings("seo");
  const uri = generateURI({ issuer: site_title, label: user.username, secret, period: PERIOD });
  // Rendered on the server, so enrolment needs no JavaScript: an SVG in a data URL (CSP img-src allows data:).
  const svg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return {
    state: "enrolling",
    required,
    key: secret.match(/.{1,4}/g)!.join(" "),
    qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
  };
}

/** Starts (or starts again) an enrolment with a fresh key; false when already enrolled. */
export async function beginEnrolment(user: User): Promise<boolean> {
  return startEnrolment({ userId: user.id, sealedSecret: sealSecret(generateSecret(), user.id) });
}

export { cancelEnrolment };

/**
 * Finishes an enrolment with the first code from the person's app. Answers the ten recovery codes
 * (shown once, kept only as hashes), or the reason it did not work.
 */
export async function finishEnrolment(user: Actor, code: string): Promise<{ ok: true; codes: string[] } | { ok: false; reason: "not-enrolling" | "wrong" }> {
  const row = await getTwoFactor({ userId: user.id });
  const secret = row && !row.enabled_at ? openSecret(row.secret, user.id) : undefined;
  if (!row || !secret) return { ok: false, reason: "not-enrolling" };
  const step = isTotpCode(code) ? await matchingStep({ secret, code, after: null }) : undefined;
  if (step === undefined) return { ok: false, reason: "wrong" };
  const { codes, hashes } = newRecoveryCodes();
  if (!(await confirmEnrolment({ actor: user, userId: user.id, sealedSecret: row.secret, step, codeHashes: hashes })))
    return { ok: false, reason: "not-enrolling" };
  return { ok: true, codes };
}

/** Ten new recovery codes for an enrolled person (the old ones stop working); undefined when not enrolled. */
export async function renewRecoveryCodes(user: Actor): Promise<string[] | undefined> {
  const { codes, hashes } = newRecoveryCodes();
  return (await replaceRecoveryCodes({ actor: user, userId: user.id, codeHashes: hashes })) ? codes : undefined;
}
