import { z } from "zod";
import { announceChange, databaseChangeVersion, dataDir, db, writeTransaction, type DB } from "../../db/index";
import { invalidatePublicCache } from "../page-store/page-cache.server";
import type { FieldErrors } from "../utils/forms";
import { checkbox, fieldErrors } from "../utils/forms.server";
import { SOCIAL_NETWORKS } from "../utils/menus";
import { LANGUAGE_OPTIONS, ROBOTS_OPTIONS, TWO_FACTOR_OPTIONS } from "../utils/settings-options";
import { recordAudit, type Actor, type AuditWho } from "./audit.server";

// Settings are key/value JSON rows (DESIGN §4). Each group has a schema with the SPEC §9
// defaults, so a missing or older row reads as a complete, valid object.

export const SecuritySettingsSchema = z.object({
  session_timeout: z.coerce
    .number()
    .pipe(z.union([z.literal(30), z.literal(60), z.literal(120), z.literal(480)]))
    .default(60),
  max_login_attempts: z.coerce
    .number()
    .pipe(z.union([z.literal(3), z.literal(5), z.literal(10)]))
    .default(5),
  // Issue 25: whose sign-in asks for a second factor (docs/decisions/023).
  two_factor_required: z.enum(TWO_FACTOR_OPTIONS, { errorMap: () => ({ message: "Оберіть, для кого двофакторна перевірка обов'язкова" }) }).default("nobody"),
});
export type SecuritySettings = z.infer<typeof SecuritySettingsSchema>;

// SPEC §2 'Settings' and §9 defaults. Empty optional text is stored as "".
const optionalUrl = z
  .string()
  .trim()
  .max(500)
  .refine((v) => v === "" || /^https?:\/\/[^\s]+$/i.test(v), "Вкажіть адресу, що починається з http:// або https://")
  .default("");
/** Trimmed text up to max characters; blank stays "" (settings hold no nulls; the newsroom's optionalText gives null). */
const textOrEmpty = (max: number) => z.string().trim().max(max, `Не більше ${max} символів`).default("");

export const GeneralSettingsSchema = z.object({
  site_url: optionalUrl,
  admin_email: z
    .string()
    .trim()
    .max(254)
    .refine((v) => v === "" || z.string().email().safeParse(v).success, "Невірний формат email")
    .default(""),
  maintenance_mode: z.boolean().default(false),
});

export const ContentSettingsSchema = z.object({
  posts_per_page: z.coerce
    .number()
    .pipe(z.union([z.literal(10), z.literal(15), z.literal(20), z.literal(25), z.literal(30)]))
    .default(10),
  allow_comments: z.boolean().default(false),
  moderation_required: z.boolean().default(true),
  // Issue 28: comments with more links than this, or with a blocked word, wait for a moderator.
  comment_max_links: z.coerce.number().int("Ціле число від 0 до 20").min(0, "Ціле число від 0 до 20").max(20, "Ціле число від 0 до 20").default(2),
  /** Words or phrases, one a line; a comment containing one (any case) waits for a moderator. */
  comment_blocklist: textOrEmpty(5000),
});

/** The eight fields of GET/PUT /api/seo/settings (SPEC §3 'Site/SEO settings'). */
export const SeoSettingsSchema = z.object({
  site_title: z.string({ required_error: "Site name is required" }).trim().min(1, "Site name is required").max(100).default("Наука UA"),
  site_description: z
    .string({ required_error: "Description is required" })
    .trim()
    .min(1, "Description is required")
    .max(300)
    .default("Новини науки, технологій, медицини та космосу українською: відкриття, дослідження й інновації."),
  site_keywords: textOrEmpty(500),
  og_image: optionalUrl,
  twitter_handle: z
    .string()
    .trim()
    .max(16)
    .refine((v) => v === "" || /^@?[A-Za-z0-9_]{1,15}$/.test(v), "Ім'я в Twitter: до 15 латинських літер, цифр або _")
    .default(""),
  language: z.enum(LANGUAGE_OPTIONS).default("uk-UA"),
  robots: z.enum(ROBOTS_OPTIONS).default("index, follow"),
  canonical_url: optionalUrl,
});
export type SeoSettings = z.infer<typeof SeoSettingsSchema>;

export const IntegrationSettingsSchema = z.object({
  gsc_verification_code: textOrEmpty(200),
  gsc_meta_verification: textOrEmpty(200),
  gsc_property_url: optionalUrl,
  analytics_enabled: z.boolean().default(true),
});

export const SeedInfoSchema = z.object({
  demo_users: z.boolean().default(false),
  seeded_at: z.string().optional(),
});

// Sitemap and URL submissions (SEO screen): recorded until a Search Console connection exists.
export const SubmissionsSchema = z.object({
  items: z.array(z.object({ kind: z.enum(["sitemap", "url"]), url: z.string(), at: z.string(), by: z.string() })).default([]),
});

// Issue 28: the weekly digest's day (ISO weekday, 1 = Monday) and hour, Europe/Kyiv (docs/decisions/027).
export const NewsletterSettingsSchema = z.object({
  digest_enabled: z.boolean().default(true),
  digest_day: z.coerce.number().int().min(1, "Оберіть день тижня").max(7, "Оберіть день тижня").default(1),
  digest_hour: z.coerce.number().int().min(0, "Година від 0 до 23").max(23, "Година від 0 до 23").default(9),
});
export type NewsletterSettings = z.infer<typeof NewsletterSettingsSchema>;

// Issue 31 item 5 (DESIGN §17): the footer's social links, edited on /admin/menu. An https address
// or nothing: an empty one shows no link (never a `#`).
const socialUrl = (name: string) =>
  z
    .string({ invalid_type_error: "Має бути текстом" })
    .trim()
    .max(300, "Не більше 300 символів")
    .refine((v) => v === "" || isHttpsUrl(v), `Адреса ${name} має починатися з https:// (або залиште поле порожнім)`)
    .default("");

/** Whether text is an absolute https URL with a host (the menu's external links, the social links). */
export function isHttpsUrl(text: string): boolean {
  if (!/^https:\/\/[^\s]+$/i.test(text)) return false;
  try {
    return new URL(text).hostname.length > 0;
  } catch {
    return false;
  }
}

export { SOCIAL_NETWORKS };

export const SocialSettingsSchema = z.object({
  facebook: socialUrl("Facebook"),
  x: socialUrl("X (Twitter)"),
  telegram: socialUrl("Telegram"),
  youtube: socialUrl("YouTube"),
  instagram: socialUrl("Instagram"),
});
export type SocialSettings = z.infer<typeof SocialSettingsSchema>;

const groups = {
  submissions: SubmissionsSchema,
  general: GeneralSettingsSchema,
  content: ContentSettingsSchema,
  seo: SeoSettingsSchema,
  integrations: IntegrationSettingsSchema,
  security: SecuritySettingsSchema,
  seed: SeedInfoSchema,
  newsletter: NewsletterSettingsSchema,
  social: SocialSettingsSchema,
} as const;
type Groups = typeof groups;
export type SettingsKey = keyof Groups;

/** Reads one settings group, filling defaults for what is missing or invalid. */
// Settings are read on hot paths (maintenance check, session expiry), so reads outside a
// transaction are cached in process; saveSettings drops the key, so a rolled-back save leaves no
// stale value. A commit by another connection or process (a second worker, a script, a second
// copy of this module in the tests) moves databaseChangeVersion (SQLite `PRAGMA data_version`,
// PostgreSQL notifications: db/engines/), and the cache starts afresh.
const cache = new Map<string, unknown>();
let cacheVersion: number | undefined;
const cacheKey = (key: string) => `${dataDir()}:${key}`;

function checkCacheVersion() {
  const version = databaseChangeVersion();
  if (version !== cacheVersion) {
    cache.clear();
    cacheVersion = version;
  }
}

export async function getSettings<K extends SettingsKey>(key: K, executor: DB = db): Promise<z.infer<Groups[K]>> {
  if (executor === db) checkCacheVersion();
  const cached = executor === db ? cache.get(cacheKey(key)) : undefined;
  if (cached) return cached as z.infer<Groups[K]>;
  const row = await executor.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirst();
  const schema = groups[key];
  let stored: unknown = {};
  try {
    stored = row ? JSON.parse(row.value) : {};
  } catch {
    stored = {};
  }
  const parsed = schema.safeParse(stored);
  const value = (parsed.success ? parsed.data : schema.parse({})) as z.infer<Groups[K]>;
  if (executor === db) cache.set(cacheKey(key), value);
  return value;
}

/** Writes one settings group (validated). */
export async function saveSettings<K extends SettingsKey>(key: K, value: z.input<Groups[K]>, executor: DB = db): Promise<void> {
  const parsed = groups[key].parse(value);
  const json = JSON.stringify(parsed);
  const now = new Date().toISOString();
  cache.delete(cacheKey(key));
  await executor
    .insertInto("settings")
    .values({ key, value: json, updated_at: now })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: json, updated_at: now }))
    .execute();
  await announceChange(executor);
  cache.delete(cacheKey(key));
}

// ---------------------------------------------------------------------------------------------
// The settings screen edits every group in one form; the API edits the SEO group.

export const SETTINGS_GROUPS = ["general", "content", "seo", "integrations", "security"] as const;
export type SiteSettings = { [K in (typeof SETTINGS_GROUPS)[number]]: z.infer<Groups[K]> };

export async function getSiteSettings(): Promise<SiteSettings> {
  const entries = await Promise.all(SETTINGS_GROUPS.map(async (key) => [key, await getSettings(key)] as const));
  return Object.fromEntries(entries) as SiteSettings;
}

/** The settings screen's one form: every group's fields side by side, unchecked boxes absent. */
export const SettingsFormSchema = z
  .object({
    ...GeneralSettingsSchema.shape,
    maintenance_mode: checkbox(),
    ...ContentSettingsSchema.shape,
    allow_comments: checkbox(),
    moderation_required: checkbox(),
    ...SeoSettingsSchema.shape,
    // The form always sends the site name: a post without it (a forged or empty one) is refused,
    // never saved as every default (issue 13, found by tests/integration/fuzz.test.ts).
    site_title: SeoSettingsSchema.shape.site_title.removeDefault(),
    ...IntegrationSettingsSchema.shape,
    analytics_enabled: checkbox(),
    ...SecuritySettingsSchema.shape,
  })
  .transform((flat) => {
    const pick = (schema: z.AnyZodObject) => Object.fromEntries(Object.keys(schema.shape).map((f) => [f, flat[f as keyof typeof flat]]));
    return Object.fromEntries(SETTINGS_GROUPS.map((key) => [key, pick(groups[key])])) as SiteSettings;
  });

/** The fields that differ between two values of one group, as `group.field`. */
function changedKeys(group: string, before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) => `${group}.${field}`);
}

/**
 * Saves every group in one transaction, with one audit entry naming the keys that changed (never
 * their values: a verification code is a setting too); public pages show the change at once.
 */
export async function saveSiteSettings(settings: SiteSettings, actor: Actor): Promise<void> {
  await writeTransaction(async (trx) => {
    const keys: string[] = [];
    for (const key of SETTINGS_GROUPS) {
      const before = await getSettings(key, trx);
      await saveSettings(key, settings[key] as never, trx);
      keys.push(...changedKeys(key, before, await getSettings(key, trx)));
    }
    if (keys.length) await recordAudit(trx, { actor, action: "settings.save", object: { type: "settings", label: "Налаштування сайту" }, details: { keys } });
  });
  invalidatePublicCache();
}

/** PUT /api/seo/settings: the given fields over the stored ones, validated as a whole. */
export async function updateSeoSettings(
  changes: Record<string, unknown>,
  actor: Actor,
): Promise<{ ok: true; seo: SeoSettings } | { ok: false; errors: FieldErrors }> {
  const current = await getSettings("seo");
  const parsed = SeoSettingsSchema.safeParse({ ...current, ...changes });
  if (!parsed.success) return { ok: false, errors: fieldErrors(parsed.error) };
  // Nothing to change (only unknown fields, or the stored values again): nothing is written.
  if (JSON.stringify(parsed.data) === JSON.stringify(current)) return { ok: true, seo: parsed.data };
  await writeTransaction(async (trx) => {
    const before = await getSettings("seo", trx);
    await saveSettings("seo", parsed.data, trx);
    const keys = changedKeys("seo", before, parsed.data);
    if (keys.length) await recordAudit(trx, { actor, action: "settings.save", object: { type: "settings", label: "Налаштування SEO" }, details: { keys } });
  });
  invalidatePublicCache();
  return { ok: true, seo: parsed.data };
}

// ---------------------------------------------------------------------------------------------
// Issue 27: the settings of our own export (science-news-export) applied by an import. Only what
// describes the publication travels; what guards the site, where it lives and where its mail goes
// stays as this install has it (docs/import-export.md):
// - never: security (session timeout, lockout, two-factor rule), general (site_url, admin_email,
//   maintenance_mode), integrations' Search Console codes and property (tied to the old address;
//   the export leaves the codes out anyway), SEO's canonical_url and robots (a staging site's
//   "noindex" or another address must not reach a live site), the newsletter and SMTP (not
//   exported: SMTP is an environment variable);
// - applied: the fields below, each validated by its group's schema (an invalid value is left out).

/** The settings an import of our export applies, by group. */
export const IMPORTED_SETTINGS = {
  seo: ["site_title", "site_description", "site_keywords", "og_image", "twitter_handle", "language"],
  content: ["posts_per_page", "allow_comments", "moderation_required", "comment_max_links", "comment_blocklist"],
  integrations: ["analytics_enabled"],
} as const satisfies Partial<Record<SettingsKey, readonly string[]>>;

/**
 * Applies the importable settings of an export's `settings` (by group) over the stored ones, in the
 * caller's transaction with one audit entry naming the keys (never their values); answers the keys
 * that changed (`group.field`) and those left out (not importable, or invalid). A dry run only answers.
 */
export async function applyImportedSettings(
  trx: DB,
  { incoming, actor, dryRun }: { incoming: Record<string, unknown>; actor: AuditWho; dryRun: boolean },
): Promise<{ applied: string[]; ignored: string[] }> {
  const applied: string[] = [];
  const ignored: string[] = [];
  for (const [group, value] of Object.entries(incoming)) {
    if (!value || typeof value !== "object" || Array.isArray(value)) continue;
    const fields = Object.keys(value);
    const allowed: readonly string[] | undefined = Object.hasOwn(IMPORTED_SETTINGS, group)
      ? IMPORTED_SETTINGS[group as keyof typeof IMPORTED_SETTINGS]
      : undefined;
    if (!allowed) {
      ignored.push(...fields.map((f) => `${group}.${f}`));
      continue;
    }
    const key = group as keyof typeof IMPORTED_SETTINGS;
    const schema = groups[key] as z.AnyZodObject;
    const current = (await getSettings(key, trx)) as Record<string, unknown>;
    const next: Record<string, unknown> = { ...current };
    let changed = false;
    for (const field of fields) {
      const one = allowed.includes(field) ? (schema.shape[field] as z.ZodTypeAny).safeParse((value as Record<string, unknown>)[field]) : null;
      if (!one?.success) {
        ignored.push(`${group}.${field}`);
        continue;
      }
      if (JSON.stringify(one.data) === JSON.stringify(current[field])) continue;
      next[field] = one.data;
      applied.push(`${group}.${field}`);
      changed = true;
    }
    if (changed && !dryRun) await saveSettings(key, next as never, trx);
  }
  if (applied.length && !dryRun)
    await recordAudit(trx, {
      actor,
      action: "site.import_settings",
      object: { type: "settings", label: "Налаштування з імпорту" },
      details: { keys: applied },
    });
  return { applied, ignored };
}
