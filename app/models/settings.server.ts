import { z } from "zod";
import { db, type DB } from "../../db/index";

// Settings are key/value JSON rows (DESIGN §4). Each group has a schema with the SPEC §9
// defaults, so a missing or older row reads as a complete, valid object.

export const SecuritySettingsSchema = z.object({
  session_timeout: z.coerce.number().pipe(z.union([z.literal(30), z.literal(60), z.literal(120), z.literal(480)])).default(60),
  max_login_attempts: z.coerce.number().pipe(z.union([z.literal(3), z.literal(5), z.literal(10)])).default(5),
});
export type SecuritySettings = z.infer<typeof SecuritySettingsSchema>;

export const SeedInfoSchema = z.object({
  demo_users: z.boolean().default(false),
  seeded_at: z.string().optional(),
});

const groups = {
  security: SecuritySettingsSchema,
  seed: SeedInfoSchema,
} as const;
type Groups = typeof groups;
export type SettingsKey = keyof Groups;

/** Reads one settings group, filling defaults for what is missing or invalid. */
export async function getSettings<K extends SettingsKey>(
  key: K,
  executor: DB = db,
): Promise<z.infer<Groups[K]>> {
  const row = await executor.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirst();
  const schema = groups[key];
  let stored: unknown = {};
  try {
    stored = row ? JSON.parse(row.value) : {};
  } catch {
    stored = {};
  }
  const parsed = schema.safeParse(stored);
  return (parsed.success ? parsed.data : schema.parse({})) as z.infer<Groups[K]>;
}

/** Writes one settings group (validated). */
export async function saveSettings<K extends SettingsKey>(
  key: K,
  value: z.input<Groups[K]>,
  executor: DB = db,
): Promise<void> {
  const parsed = groups[key].parse(value);
  const json = JSON.stringify(parsed);
  const now = new Date().toISOString();
  await executor
    .insertInto("settings")
    .values({ key, value: json, updated_at: now })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: json, updated_at: now }))
    .execute();
}
