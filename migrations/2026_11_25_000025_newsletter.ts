import type { Kysely } from "kysely";
import { autoId, now as nowIn, timestamp } from "./dialect";

// Issue 28 items 3–4 and issue 31 item 20 (docs/decisions/027-newsletter-and-mail.md).
// - newsletter_subscribers: one row per address; `email_key` is the address in lower case, unique,
//   so Reader@X and reader@x are one subscriber on both engines. `status` pending → confirmed;
//   only the SHA-256 of the confirmation token is kept, with its 48-hour expiry; the unsubscribe
//   token is kept as issued (it goes into every email and is useless for anything but leaving).
//   Removing a subscriber deletes the row (issue 28 item 5); their sends left in the queue go too.
// - newsletter_issues: one send (the weekly digest or one article); `period` names the digest's
//   week (unique: one digest a week, whichever process gets there first).
// - newsletter_queue: one row per issue and subscriber, unique together, so nobody is queued twice
//   for an issue; status queued → sending → sent, or failed after the last attempt. A row left
//   `sending` by a process that died is never sent again (at most once: decision 027).
// - password_resets: "Forgot password" links; only the token's SHA-256, an hour long, used once.
export async function up(db: Kysely<any>): Promise<void> {
  const now = nowIn(db);
  const ts = timestamp(db);

  await db.schema
    .createTable("newsletter_subscribers")
    .$call(autoId(db))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("email_key", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("confirm_token_hash", "text")
    .addColumn("confirm_expires_at", ts)
    .addColumn("unsubscribe_token", "text", (c) => c.notNull().unique())
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("confirmed_at", ts)
    .execute();
  await db.schema.createIndex("newsletter_subscribers_confirm").on("newsletter_subscribers").column("confirm_token_hash").execute();
  await db.schema.createIndex("newsletter_subscribers_status").on("newsletter_subscribers").columns(["status", "id"]).execute();

  await db.schema
    .createTable("newsletter_issues")
    .$call(autoId(db))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("article_id", "text", (c) => c.references("articles.id").onDelete("set null"))
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("period", "text", (c) => c.unique())
    // The rendered email (subject, HTML and text with a {{unsubscribe}} placeholder), made once when the
    // issue is created, so every copy is the same whichever process sends it.
    .addColumn("body_html", "text", (c) => c.notNull())
    .addColumn("body_text", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("sending"))
    .addColumn("created_by", "text")
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("finished_at", ts)
    .execute();

  await db.schema
    .createTable("newsletter_queue")
    .$call(autoId(db))
    .addColumn("issue_id", "integer", (c) => c.notNull().references("newsletter_issues.id").onDelete("cascade"))
    // A removed subscriber's sent and failed rows stay (counts in the send log) without the address.
    .addColumn("subscriber_id", "integer", (c) => c.references("newsletter_subscribers.id").onDelete("set null"))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("queued"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .addColumn("next_attempt_at", ts, (c) => c.notNull().defaultTo(now))
    // When the last attempt was claimed: paces the sender across processes, finds a crashed send.
    .addColumn("attempted_at", ts)
    .addColumn("sent_at", ts)
    .addUniqueConstraint("newsletter_queue_issue_subscriber", ["issue_id", "subscriber_id"])
    .execute();
  await db.schema.createIndex("newsletter_queue_due").on("newsletter_queue").columns(["status", "next_attempt_at"]).execute();
  await db.schema.createIndex("newsletter_queue_subscriber").on("newsletter_queue").column("subscriber_id").execute();

  await db.schema
    .createTable("password_resets")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", ts, (c) => c.notNull().defaultTo(now))
    .addColumn("expires_at", ts, (c) => c.notNull())
    .addColumn("used_at", ts)
    .execute();
  await db.schema.createIndex("password_resets_user").on("password_resets").column("user_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("password_resets").execute();
  await db.schema.dropTable("newsletter_queue").execute();
  await db.schema.dropTable("newsletter_issues").execute();
  await db.schema.dropTable("newsletter_subscribers").execute();
}
