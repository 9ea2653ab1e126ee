import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";
import type { ArticleStatus } from "../app/utils/newsroom-rules";
import type { Role } from "../app/utils/roles";
import type {
  CommentsMode,
  CommentsTable,
  NewsletterSubscribersTable,
  NewsletterIssuesTable,
  NewsletterQueueTable,
  PasswordResetsTable,
  ImportSourcesTable,
  RedirectsTable,
  ImportJobsTable,
  ArticleCorrectionsTable,
  ArticleSourcesTable,
  PagesTable,
  MenuItemsTable,
} from "./schema-site";
export type { CommentsMode, CommentStatus } from "./schema-site";

// Table types follow Kysely's guidance (STYLE.md 'Data'): Generated<> for defaults, `| null`
// for nullable. SQLite hands back text dates and 0/1 integers; models convert at their edge.

export type BlockId = "hero" | "main" | "sidebar" | "trending" | "featured";

type Timestamp = ColumnType<string, string | undefined, string>;

export interface UsersTable {
  id: string;
  username: string;
  email: string;
  password_hash: string;
  role: Role;
  is_active: Generated<number>;
  name: string | null;
  bio: string | null;
  avatar: string | null;
  /** Issue 29: the author page's slug (/author/{slug}), given when the person first signs an article. */
  slug: ColumnType<string | null, string | null | undefined, string | null>;
  /** Issue 29: JSON text of [{label, url}] shown on the author page. */
  links: ColumnType<string | null, string | null | undefined, string | null>;
  last_login: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  data: Generated<string>;
  kind: Generated<"cookie" | "bearer">;
  user_agent: string | null;
  /** The client address at sign-in, moved on with last_seen_at (issue 25). */
  ip: string | null;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: string;
}

/** The second factor of one person (docs/decisions/023): `secret` is sealed, never the TOTP key itself. */
export interface UserTwoFactorTable {
  user_id: string;
  secret: string;
  /** null while enrolment waits for the first code. */
  enabled_at: string | null;
  /** The RFC 6238 time step of the last accepted code: a code is used at most once. */
  last_step: number | null;
  created_at: Timestamp;
}

export interface UserRecoveryCodesTable {
  id: Generated<number>;
  user_id: string;
  /** SHA-256 (hex) of the normalised code. */
  code_hash: string;
  used_at: string | null;
  created_at: Timestamp;
}

/** Between the password and the code: never a session (docs/decisions/023). */
export interface SignInChallengesTable {
  id: string;
  user_id: string;
  ip: string | null;
  user_agent: string | null;
  redirect_to: string | null;
  created_at: Timestamp;
  expires_at: string;
}

export interface CategoriesTable {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ArticlesTable {
  id: string;
  slug: string;
  title: string;
  subtitle: string | null;
  content: Generated<string>;
  content_html: Generated<string>;
  category_id: string | null;
  author_id: string | null;
  status: Generated<ArticleStatus>;
  published_at: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  updated_by: string | null;
  version: Generated<number>;
  views: Generated<number>;
  seo_title: string | null;
  seo_description: string | null;
  meta_keywords: string | null;
  og_image: string | null;
  canonical_url: string | null;
  featured_image: string | null;
  featured_image_alt: string | null;
  featured_image_caption: string | null;
  /** Issue 28: readers may comment (open), comments stay shown but closed, or are not shown (hidden). */
  comments_mode: Generated<CommentsMode>;
  /** Issue 29: 1 keeps the article out of search engines, sitemaps and feeds. */
  noindex: Generated<number>;
  /** Issue 29: not publishable before this time (UTC), by anyone (docs/decisions/029). */
  embargo_until: string | null;
  embargo_note: string | null;
  /** Issue 29: the "Оновлено" time: the last correction or significant update. */
  updated_significantly_at: string | null;
}

export interface TagsTable {
  id: Generated<number>;
  name: string;
  /** Issue 29: the tag page's slug (/tag/{slug}). */
  slug: string | null;
}

/** Issue 29: a contributor without an account (docs/decisions/028). */
export interface GuestAuthorsTable {
  id: string;
  name: string;
  slug: string;
  bio: string | null;
  photo: string | null;
  links: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Issue 29: an article's byline in order; exactly one of user_id and guest_id. */
export interface ArticleAuthorsTable {
  article_id: string;
  position: number;
  user_id: string | null;
  guest_id: string | null;
}

export interface ArticleTagsTable {
  article_id: string;
  tag_id: number;
  position: Generated<number>;
}

export interface SlugRedirectsTable {
  old_slug: string;
  article_id: string;
  created_at: Timestamp;
}

export interface PageViewsTable {
  day: string;
  path: string;
  article_id: string | null;
  views: Generated<number>;
}

export interface HomepageBlocksTable {
  block_id: BlockId;
  position: number;
  article_id: string;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: Timestamp;
}

export interface MediaTable {
  id: string;
  file_name: string;
  stored_path: string;
  mime: string;
  size: number;
  alt: string | null;
  width: number | null;
  height: number | null;
  uploaded_by: string | null;
  created_at: Timestamp;
  /** Issue 31 item 16: hex SHA-256 of the file's bytes (null for files stored before it). */
  sha256: string | null;
}

/** Issue 31 item 13: a one-time token of the new-article form, and the article its first submit made. */
export interface FormTokensTable {
  token: string;
  user_id: string;
  article_id: string | null;
  created_at: Timestamp;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  username: string;
  ip: string;
  success: number;
  created_at: Timestamp;
}

export interface ArticlesFtsTable {
  article_id: string;
  title: string;
  subtitle: string;
  content: string;
  tags: string;
}

/** Issue 30: the stems of each searchable field's words (docs/decisions/030); rowid shared with the article. */
export interface ArticlesStemsTable {
  rowid: number;
  title: string;
  subtitle: string;
  content: string;
  tags: string;
}

/** Issue 15: one row per save that changed a kept field (newest 100 per article). */
export interface ArticleRevisionsTable {
  id: Generated<number>;
  article_id: string;
  author_id: string | null;
  created_at: Timestamp;
  title: string;
  summary: string;
  /** JSON of the kept fields (app/models/article-revision.server.ts `KeptFields`). */
  fields: string;
}

/** Issue 15: the editor's server-side autosave copy, one per article and user. */
export interface ArticleAutosavesTable {
  article_id: string;
  user_id: string;
  saved_at: Timestamp;
  fields: string;
}

/** Issue 15: preview links; only the token's SHA-256 is stored. */
export interface PreviewLinksTable {
  token_hash: string;
  article_id: string;
  created_by: string | null;
  created_at: Timestamp;
  expires_at: string;
}

/** The editorial desk's notes (issue 14): a submit's note and a return's note, who and when. */
export interface ArticleDeskNotesTable {
  id: Generated<number>;
  article_id: string;
  kind: "submit" | "return";
  note: string | null;
  user_id: string | null;
  created_at: string;
}

/**
 * Issue 25: the audit log (app/models/audit.server.ts), append-only. `user_id` and `username` are
 * who acted at the time (no foreign key: an entry outlives its user); both null for the system.
 */
export interface AuditLogTable {
  id: Generated<number>;
  created_at: Timestamp;
  user_id: string | null;
  username: string | null;
  action: string;
  object_type: string | null;
  object_id: string | null;
  object_label: string | null;
  ip: string | null;
  /** A small JSON object (never a password, hash, token, session id or code). */
  details: string | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  categories: CategoriesTable;
  articles: ArticlesTable;
  tags: TagsTable;
  article_tags: ArticleTagsTable;
  guest_authors: GuestAuthorsTable;
  article_authors: ArticleAuthorsTable;
  slug_redirects: SlugRedirectsTable;
  page_views: PageViewsTable;
  homepage_blocks: HomepageBlocksTable;
  settings: SettingsTable;
  media: MediaTable;
  login_attempts: LoginAttemptsTable;
  articles_fts: ArticlesFtsTable;
  articles_stems: ArticlesStemsTable;
  article_revisions: ArticleRevisionsTable;
  article_autosaves: ArticleAutosavesTable;
  preview_links: PreviewLinksTable;
  article_desk_notes: ArticleDeskNotesTable;
  user_two_factor: UserTwoFactorTable;
  user_recovery_codes: UserRecoveryCodesTable;
  sign_in_challenges: SignInChallengesTable;
  audit_log: AuditLogTable;
  comments: CommentsTable;
  newsletter_subscribers: NewsletterSubscribersTable;
  newsletter_issues: NewsletterIssuesTable;
  newsletter_queue: NewsletterQueueTable;
  password_resets: PasswordResetsTable;
  import_sources: ImportSourcesTable;
  redirects: RedirectsTable;
  import_jobs: ImportJobsTable;
  article_corrections: ArticleCorrectionsTable;
  article_sources: ArticleSourcesTable;
  pages: PagesTable;
  menu_items: MenuItemsTable;
  form_tokens: FormTokensTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Category = Selectable<CategoriesTable>;
export type Article = Selectable<ArticlesTable>;
export type NewArticle = Insertable<ArticlesTable>;
export type Session = Selectable<SessionsTable>;
export type Media = Selectable<MediaTable>;
