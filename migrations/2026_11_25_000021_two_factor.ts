import type { Kysely } from "kysely";
import { autoId, now as nowIn, timestamp } from "./dialect";

// Issue 25, items 10 and 12 (docs/decisions/023-second-factor.md): the second factor and "your
// sessions".
// - user_two_factor: one row per person who started or finished enrolment. `secret` is the TOTP key
//   sealed with a key derived from the session secret (AES-256-GCM), never the key itself;
//   `enabled_at` is null while the person has not yet confirmed a code; `last_step` is the RFC 6238
//   time step of the last code accepted, so each code is used at most once.
// - user_recovery_codes: ten single-use codes per person, only their SHA-256 is kept.
// - sign_in_challenges: the half-signed-in state between the password and the code (keyed by the
//   SHA-256 of the token in the `__signin` cookie; a few minutes long). Never a session.
// - sessions.ip: the client address, recorded at sign-in and moved on with last_seen_at.
export async function up(db: Kysely<any>): Promise<void> {
  const now = nowIn(db);
  const ts = timestamp(db);
  await db.schema.alterTable("sessions").addColumn("ip", "text").execute();

  await db.schema
    .createTable("user_two_factor")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("enabled_at", ts)
    .addColumn("last_step", "integer")
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable("user_recovery_codes")
    .$call(autoId(db))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("used_at", ts)
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint("user_recovery_codes_user_code", ["user_id", "code_hash"])
    .execute();

  await db.schema
    .createTable("sign_in_challenges")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("ip", "text")
    .addColumn("user_agent", "text")
    .addColumn("redirect_to", "text")
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("expires_at", ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sign_in_challenges_user_id").on("sign_in_challenges").column("user_id").execute();
  await db.schema.createIndex("sign_in_challenges_expires_at").on("sign_in_challenges").column("expires_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("sign_in_challenges").execute();
  await db.schema.dropTable("user_recovery_codes").execute();
  await db.schema.dropTable("user_two_factor").execute();
  await db.schema.alterTable("sessions").dropColumn("ip").execute();
}
