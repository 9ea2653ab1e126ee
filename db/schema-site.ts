import type { ColumnType, Generated } from "kysely";

// The tables of what reaches readers and what comes in (issues 27–31: comments, the newsletter,
// password resets, the import, corrections and sources, static pages), beside the core tables in
// schema.ts, which lists every table in `Database`.

type Timestamp = ColumnType<string, string | undefined, string>;

export type CommentsMode = "open" | "closed" | "hidden";
export type CommentStatus = "pending" | "approved" | "spam" | "deleted";

/** Issue 28: a reader's comment (docs/decisions/026-comments.md). */
export interface CommentsTable {
  id: string;
  article_id: string;
  parent_id: string | null;
  author_name: string;
  /** Private: shown to editors and admins only. */
  author_email: string | null;
  body: string;
  status: Generated<CommentStatus>;
  held_reason: string | null;
  /** The client address (staff only; the rate limit counts by it). */
  ip: string | null;
  /** SHA-256 of the reader's deletion cookie (15 minutes). */
  delete_token_hash: string | null;
  created_at: Timestamp;
  moderated_by: string | null;
  moderated_at: Timestamp | null;
}

/** Issue 28: newsletter subscribers (app/models/newsletter.server.ts); `email_key` is the address in lower case. */
export interface NewsletterSubscribersTable {
  id: Generated<number>;
  email: string;
  email_key: string;
  status: Generated<"pending" | "confirmed">;
  confirm_token_hash: string | null;
  confirm_expires_at: string | null;
  unsubscribe_token: string;
  created_at: Timestamp;
  confirmed_at: string | null;
}

/** One newsletter send: the weekly digest (`period` its week) or one article. */
export interface NewsletterIssuesTable {
  id: Generated<number>;
  kind: "digest" | "article";
  article_id: string | null;
  subject: string;
  period: string | null;
  body_html: string;
  body_text: string;
  status: Generated<"sending" | "done">;
  created_by: string | null;
  created_at: Timestamp;
  finished_at: string | null;
}

/** The send queue: one row per issue and subscriber (unique), sent at most once. */
export interface NewsletterQueueTable {
  id: Generated<number>;
  issue_id: number;
  subscriber_id: number | null;
  status: Generated<"queued" | "sending" | "sent" | "failed">;
  attempts: Generated<number>;
  last_error: string | null;
  next_attempt_at: Timestamp;
  attempted_at: string | null;
  sent_at: string | null;
}

/** Issue 31 item 20: "forgot password" links; only the token's SHA-256. */
export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: string;
  used_at: string | null;
}

/** Issue 27: what an imported thing was at its source, and what it became here (idempotence). */
export interface ImportSourcesTable {
  source: string;
  site: string;
  kind: string;
  source_id: string;
  target_id: string;
  created_at: Timestamp;
}

/** Issue 27: an old public path (decoded, no trailing slash) answering 301 to its new path. */
export interface RedirectsTable {
  old_path: string;
  new_path: string;
  created_at: Timestamp;
}

/** Issue 27: one import run from /admin/import, its progress and summary (JSON). */
export interface ImportJobsTable {
  id: Generated<number>;
  created_at: Timestamp;
  finished_at: string | null;
  user_id: string | null;
  format: string;
  file_name: string;
  dry_run: Generated<number>;
  status: "queued" | "running" | "done" | "failed";
  stage: string | null;
  done: Generated<number>;
  total: Generated<number>;
  summary: string | null;
  error: string | null;
}

/** Issue 29: a correction of a published article, kept with the revision its save wrote. */
export interface ArticleCorrectionsTable {
  id: Generated<number>;
  article_id: string;
  note: string;
  created_at: Timestamp;
  created_by: string | null;
  revision_id: number | null;
}

/** Issue 29: an article's sources, in order. */
export interface ArticleSourcesTable {
  id: Generated<number>;
  article_id: string;
  position: number;
  kind: "study" | "dataset" | "report" | "other";
  doi: string | null;
  title: string;
  publisher: string | null;
  year: number | null;
  /** 1 peer reviewed, 0 a preprint (not reviewed), null unknown. */
  peer_reviewed: number | null;
  url: string | null;
}

/** Static pages (issue 31 item 5, DESIGN §17). */
export interface PagesTable {
  id: string;
  slug: string;
  title: string;
  body: Generated<string>;
  body_html: Generated<string>;
  status: Generated<"published" | "draft">;
  seo_title: string | null;
  seo_description: string | null;
  position: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type MenuName = "header" | "footer";
export type MenuItemKind = "home" | "category" | "page" | "url";

/** A link of the header menu or the footer quick links (issue 31 item 5, migration 000031). */
export interface MenuItemsTable {
  id: string;
  menu: MenuName;
  position: number;
  /** Null: the target's own name (a category's name, a page's title). */
  label: string | null;
  kind: MenuItemKind;
  category_id: string | null;
  page_id: string | null;
  url: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
