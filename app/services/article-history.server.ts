import type { User } from "../../db/schema";
import { getRevision, listRevisions, pickKept } from "../models/article-revision.server";
import { canEditArticle, getArticleById, updateArticle, type ArticleView } from "../models/article.server";
import type { Actor } from "../models/audit.server";
import { getCategoryById, listCategoryChoices } from "../models/category.server";
import { createPreviewLink, livePreviewLink, revokePreviewLink } from "../models/preview-link.server";
import { CpuBudgetError, runCpuJob, warmCpuPool } from "../utils/cpu-pool.server";
import { DomainError } from "../utils/errors";
import { MESSAGES } from "../utils/newsroom-rules";
import type { DiffField } from "../utils/revision-diff";
import type { KeptFields } from "../utils/revision-fields";
import { requireUser } from "./auth.server";
import { getBaseUrl } from "./public-site.server";

// Issue 15: the editor's history (GET/POST /api/articles/{id}/revisions..., the History page and
// panel). Only those who may edit an article read or restore its revisions; a restore is a normal
// save through updateArticle, so permissions, the version rule, sanitising, the new revision and
// the page-cache invalidation all happen once, there.

type Reader = Pick<User, "id" | "role">;

/** The article, when actor may edit it: 404 unknown, 403 not theirs to edit. */
export async function requireEditableArticle(actor: Reader, articleId: string): Promise<ArticleView> {
  const article = await getArticleById({ id: articleId });
  if (!article) throw new DomainError(404, "Статтю не знайдено");
  if (!canEditArticle(actor, article)) throw new DomainError(403, "Недостатньо прав для цієї статті");
  return article;
}

/**
 * For an admin screen: the signed-in user and an article they may edit, else the 404/403 response.
 * The editor, its history and the desk save or compare markdown: the CPU worker starts loading now.
 */
export async function requireArticleToEdit(request: Request, articleId: string) {
  const user = await requireUser(request);
  try {
    const article = await requireEditableArticle(user, articleId);
    warmCpuPool();
    return { user, article };
  } catch (error) {
    if (error instanceof DomainError) throw new Response(error.message, { status: error.status });
    throw error;
  }
}

export async function articleRevisions({ actor, articleId, skip, limit }: { actor: Reader; articleId: string; skip: number; limit: number }) {
  await requireEditableArticle(actor, articleId);
  return listRevisions({ articleId, skip, limit });
}

export async function articleRevision({ actor, articleId, revisionId }: { actor: Reader; articleId: string; revisionId: number }) {
  await requireEditableArticle(actor, articleId);
  return getRevision({ articleId, revisionId });
}

/**
 * A revision and its word-level comparison with the saved article (the History page and panel,
 * `GET /api/articles/{id}/revisions/{rev}?compare=current`). The diff runs in the CPU pool (issue
 * 25): two versions too different to compare within the time budget are a 422, too large a 413.
 */
export async function compareRevision({ actor, articleId, revisionId }: { actor: Actor; articleId: string; revisionId: number }) {
  const article = await requireEditableArticle(actor, articleId);
  const [revision, categories] = await Promise.all([getRevision({ articleId, revisionId }), listCategoryChoices()]);
  const pair = { revision: pickKept(revision), current: pickKept(article), categories: Object.fromEntries(categories.map((c) => [c.id, c.name])) };
  let diff: DiffField[];
  try {
    diff = await runCpuJob({ kind: "diff", pair });
  } catch (error) {
    if (!(error instanceof CpuBudgetError)) throw error;
    throw error.reason === "size" ? new DomainError(413, MESSAGES.diffTooLarge) : new DomainError(422, MESSAGES.diffTooComplex);
  }
  return { revision, diff };
}

/**
 * An edit conflict (issue 31 item 12): the saved version against the writer's, word by word, in
 * the CPU pool as for the history (decision 018). Past its budgets the comparison is left out with
 * the reason (`refused`); the writer can still keep their version.
 */
export async function compareWithSaved({ actor, articleId, mine }: { actor: Actor; articleId: string; mine: KeptFields }) {
  const article = await requireEditableArticle(actor, articleId);
  const categories = await listCategoryChoices();
  const pair = { revision: pickKept(article), current: pickKept(mine), categories: Object.fromEntries(categories.map((c) => [c.id, c.name])) };
  try {
    return { version: article.version, diff: await runCpuJob({ kind: "diff", pair }), refused: null };
  } catch (error) {
    if (!(error instanceof CpuBudgetError)) throw error;
    return { version: article.version, diff: [] as DiffField[], refused: error.reason === "size" ? MESSAGES.diffTooLarge : MESSAGES.diffTooComplex };
  }
}

/**
 * Saves a revision's fields as the article's new version, keeping its status and slug. With
 * `version`, a save based on an older version is refused (409), as for any save.
 */
export async function restoreRevision({ actor, articleId, revisionId, version }: { actor: Actor; articleId: string; revisionId: number; version?: number }) {
  const article = await requireEditableArticle(actor, articleId);
  const rev = await getRevision({ articleId, revisionId });
  return updateArticle({
    actor,
    id: articleId,
    restoredFrom: { id: rev.id, created_at: rev.created_at },
    input: {
      title: rev.title,
      subtitle: rev.subtitle,
      content: rev.content,
      tags: rev.tags,
      // A category deleted since keeps the article where it is now.
      category_id: rev.category_id && (await getCategoryById({ id: rev.category_id })) ? rev.category_id : (article.category_id ?? ""),
      seo_title: rev.seo_title,
      seo_description: rev.seo_description,
      featured_image: rev.featured_image,
      featured_image_alt: rev.featured_image_alt,
      featured_image_caption: rev.featured_image_caption,
      status: article.status,
      slug: undefined,
      version,
    },
  });
}

/**
 * POST /api/articles/{id}/preview-link and the editor's button (issue 15): a new link valid 7 days,
 * or with `revoke` the end of the article's link. While a link is live a new one needs `replace`
 * (issue 31 item 10: 409 otherwise), and the old one then stops working.
 */
export async function articlePreviewLink({ actor, articleId, revoke, replace }: { actor: Actor; articleId: string; revoke?: boolean; replace?: boolean }) {
  const article = await requireEditableArticle(actor, articleId);
  if (revoke) {
    await revokePreviewLink({ articleId: article.id, actor });
    return { url: null, expires_at: null, revoked: true as const };
  }
  const link = await createPreviewLink({ articleId: article.id, actor, replace });
  return { url: `${await getBaseUrl()}/preview/${link.token}`, expires_at: link.expires_at };
}

/** The editor's view of the article's link (issue 31 item 10): only whether one is live and until when. */
export async function previewLinkState({ actor, articleId }: { actor: Reader; articleId: string }) {
  const article = await requireEditableArticle(actor, articleId);
  const live = await livePreviewLink({ articleId: article.id });
  return live ? { expires_at: live.expires_at } : null;
}
