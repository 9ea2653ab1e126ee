import type { Selectable } from "kysely";
import { z } from "zod";
import { db, isWriteTransaction, type DB } from "../../db/index";
import type { AuditLogTable } from "../../db/schema";
import { AUDIT_ACTION_NAMES, auditActionLabel, type AuditAction, type AuditObjectType } from "../utils/audit-actions";
import { kyivDayStart } from "../utils/dates";
import type { Role } from "../utils/roles";

// The audit log (issue 25, SECURITY.md 'Audit log' [ASVS 7.1–7.3], docs/decisions/024): every staff
// change writes one entry with recordAudit, inside the writeTransaction of the change itself, so a
// change that rolls back leaves no entry and no committed change lacks one. Append-only: this module
// has no update or delete except the prune of entries older than a year (runtime's hourly job), and
// the database refuses the rest (migrations/2026_11_25_000022_audit_log.ts). The actions and their
// Ukrainian labels are listed once, in app/utils/audit-actions.ts.

/**
 * Who makes a change: the signed-in person (`requireUser` answers one, with the address of the
 * request) as models receive them. Models never see the Request; the address travels here.
 */
export interface Actor {
  id: string;
  username: string;
  role: Role;
  /** The client address as the server resolved it (trust-proxy aware), or null when unknown. */
  ip: string | null;
}

/** Who an entry names: an actor, someone who only tried a username (failed sign-in), or the system. */
export interface AuditWho {
  id: string | null;
  username: string | null;
  ip: string | null;
}

/** The site itself (the scheduler publishing a story that fell due): no person, no address. */
export const SYSTEM: AuditWho = { id: null, username: null, ip: null };

type DetailValue = string | number | boolean | null | DetailValue[] | { [key: string]: DetailValue };

export interface AuditEntry {
  actor: AuditWho;
  action: AuditAction;
  /** What the change is about, with a short human label (a title, a username, a file name). */
  object?: { type: AuditObjectType; id?: string | null; label?: string | null };
  /** A small JSON object: which settings keys changed, old → new status or role, a count. */
  details?: Record<string, DetailValue>;
}

// What an entry never holds (SECURITY.md: no password, hash, token, session id, TOTP code or
// secret). Callers put none there; this is the net under them: a detail whose key looks like one
// is replaced, whatever its value, before it is written.
const SECRET_KEY = /pass|hash|token|secret|session|cookie|otp|recovery|code|salt|api_?key|credential/i;
export const REDACTED = "[прибрано]";
const MAX_TEXT = 200;
const MAX_ITEMS = 50;
const MAX_DEPTH = 3;

const clip = (text: string, max = MAX_TEXT) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
/** An IPv4 address as Node reports it on a dual-stack socket (`::ffff:203.0.113.7`) reads as itself. */
const plainAddress = (ip: string) => clip(ip.replace(/^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i, "$1"), 100);

function cleanDetails(value: DetailValue, depth = 0): DetailValue {
  if (typeof value === "string") return clip(value);
  if (value === null || typeof value !== "object") return typeof value === "number" && !Number.isFinite(value) ? null : value;
  if (depth >= MAX_DEPTH) return "…";
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((v) => cleanDetails(v, depth + 1));
  const clean: Record<string, DetailValue> = {};
  for (const [key, v] of Object.entries(value).slice(0, MAX_ITEMS)) {
    if (key === "__proto__" || v === undefined) continue;
    clean[key] = SECRET_KEY.test(key) ? REDACTED : cleanDetails(v, depth + 1);
  }
  return clean;
}

/**
 * Appends one entry to the audit log. `trx` must be the executor of the writeTransaction that makes
 * the change (anything else throws), so the entry commits or rolls back with it. Called by every
 * staff write in app/models; imports, exports and two-factor changes call it the same way.
 */
export async function recordAudit(trx: DB, entry: AuditEntry): Promise<void> {
  if (!isWriteTransaction(trx)) throw new Error(`recordAudit(${entry.action}) must run inside the writeTransaction of the change it records`);
  const details = entry.details ? (cleanDetails(entry.details) as Record<string, DetailValue>) : null;
  await trx
    .insertInto("audit_log")
    .values({
      created_at: new Date().toISOString(),
      user_id: entry.actor.id,
      username: entry.actor.username === null ? null : clip(entry.actor.username, 254),
      action: entry.action,
      object_type: entry.object?.type ?? null,
      object_id: entry.object?.id ?? null,
      object_label: entry.object?.label == null ? null : clip(entry.object.label),
      ip: entry.actor.ip === null ? null : plainAddress(entry.actor.ip),
      details: details && Object.keys(details).length ? JSON.stringify(details) : null,
    })
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Reading: the /admin/audit screen, its CSV and GET /api/audit share one filter.

// A GET form sends empty fields; a query string leaves them out: both mean "any".
const blankToUndefined = (value: unknown) => (value == null || (typeof value === "string" && value.trim() === "") ? undefined : value);
const day = (message: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .refine((v) => kyivDayStart(v) !== null, message)
      .optional(),
  );

/** The filters: `user` (a username, as written at the time), `action`, `from` and `to` (Kyiv calendar days, both included). */
export const AuditFilterSchema = z
  .object({
    user: z.preprocess(
      blankToUndefined,
      z
        .string()
        .trim()
        .toLowerCase()
        .max(50, "Ім'я користувача: до 50 символів")
        .regex(/^[a-z0-9_.-]+$/, "Ім'я користувача: латинські літери, цифри та _ . -")
        .optional(),
    ),
    action: z.preprocess(blankToUndefined, z.enum(AUDIT_ACTION_NAMES, { errorMap: () => ({ message: "Невідома дія" }) }).optional()),
    from: day("Дата «від»: рррр-мм-дд"),
    to: day("Дата «до»: рррр-мм-дд"),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { message: "Дата «від» пізніша за дату «до»", path: ["to"] });
export type AuditFilter = z.infer<typeof AuditFilterSchema>;

/** One entry as the screen, the API and the CSV show it. */
export interface AuditView {
  id: number;
  created_at: string;
  user_id: string | null;
  username: string | null;
  action: string;
  action_label: string;
  object_type: string | null;
  object_id: string | null;
  object_label: string | null;
  ip: string | null;
  details: Record<string, unknown> | null;
}

function toView(row: Selectable<AuditLogTable>): AuditView {
  let details: Record<string, unknown> | null = null;
  try {
    details = row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null;
  } catch {
    details = null;
  }
  return {
    id: row.id,
    created_at: row.created_at,
    user_id: row.user_id,
    username: row.username,
    action: row.action,
    action_label: auditActionLabel(row.action),
    object_type: row.object_type,
    object_id: row.object_id,
    object_label: row.object_label,
    ip: row.ip,
    details,
  };
}

function filtered(executor: DB, filter: AuditFilter) {
  const from = filter.from ? kyivDayStart(filter.from) : null;
  const to = filter.to ? kyivDayStart(filter.to, { next: true }) : null;
  return executor
    .selectFrom("audit_log")
    .$if(Boolean(filter.user), (qb) => qb.where("username", "=", filter.user!))
    .$if(Boolean(filter.action), (qb) => qb.where("action", "=", filter.action!))
    .$if(Boolean(from), (qb) => qb.where("created_at", ">=", from!))
    .$if(Boolean(to), (qb) => qb.where("created_at", "<", to!));
}

/** A page of entries, newest first, with how many match the filter. */
export async function listAudit({
  filter,
  skip,
  limit,
}: {
  filter: AuditFilter;
  skip: number;
  limit: number;
}): Promise<{ entries: AuditView[]; total: number }> {
  const [rows, count] = await Promise.all([
    filtered(db, filter).selectAll().orderBy("id", "desc").offset(skip).limit(limit).execute(),
    filtered(db, filter)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { entries: rows.map(toView), total: Number(count.n) };
}

/**
 * Every entry matching the filter, newest first, read in batches by id (memory stays flat however
 * many a year holds); entries written while it runs are not included.
 */
export async function* exportAudit({ filter, batch = 500 }: { filter: AuditFilter; batch?: number }): AsyncGenerator<AuditView> {
  let before: number | undefined;
  for (;;) {
    const rows = await filtered(db, filter)
      .selectAll()
      .$if(before !== undefined, (qb) => qb.where("id", "<", before!))
      .orderBy("id", "desc")
      .limit(batch)
      .execute();
    for (const row of rows) yield toView(row);
    if (rows.length < batch) return;
    before = rows[rows.length - 1].id;
  }
}

/** The moment before which entries are pruned: one calendar year before `now`. */
export function auditRetentionCutoff(now: Date = new Date()): string {
  const cutoff = new Date(now.getTime());
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - 1);
  return cutoff.toISOString();
}

/** Deletes the entries older than a year (the audit log's only deletion; runtime's hourly prune). Answers how many. */
export async function pruneAuditLog({ now = new Date() }: { now?: Date } = {}): Promise<number> {
  const result = await db.deleteFrom("audit_log").where("created_at", "<", auditRetentionCutoff(now)).executeTakeFirst();
  return Number(result.numDeletedRows);
}
