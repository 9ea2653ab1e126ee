import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import type { AdminHandle } from "~/components/admin/nav";
import { AccessDenied } from "~/components/admin/placeholder";
import { ArticleEditor } from "~/components/newsroom/article-editor";
import { CommentsModeControl } from "~/components/newsroom/comments-mode-control";
import { DeskNotice, DeskPanel } from "~/components/newsroom/desk-panel";
import { HistoryPanel } from "~/components/newsroom/history-panel";
import { NewsletterSendButton } from "~/components/newsroom/newsletter-send-button";
import { PreviewLinkButton } from "~/components/newsroom/preview-link-button";
import { ScienceFields } from "~/components/newsroom/science-fields";
import { latestDeskNote } from "~/models/article-desk.server";
import type { ArticleView } from "~/models/article.server";
import { bylineEditorData } from "~/models/bylines.server";
import { listCategoryChoices } from "~/models/category.server";
import { getCommentsMode } from "~/models/comment.server";
import { handleEditorAction, type EditorValues } from "~/services/article-form.server";
import { previewLinkState, requireArticleToEdit } from "~/services/article-history.server";
import { crossrefEnabled } from "~/services/crossref.server";
import { takeFlash } from "~/services/flash.server";
import { savedScienceValues } from "~/services/science-form.server";
import styles from "~/styles/newsroom.css";
import { isoToKyivLocal } from "~/utils/dates";

const TITLE = "Редагування статті";

export const handle: AdminHandle = { title: TITLE };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

const toValues = (a: ArticleView): EditorValues => ({
  title: a.title,
  subtitle: a.subtitle ?? "",
  content: a.content,
  status: a.status,
  category_id: a.category_id ?? "",
  tags: a.tags.join(", "),
  featured_image: a.featured_image ?? "",
  featured_image_alt: a.featured_image_alt ?? "",
  featured_image_caption: a.featured_image_caption ?? "",
  slug: a.slug,
  seo_title: a.seo_title ?? "",
  seo_description: a.seo_description ?? "",
  version: String(a.version),
});

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, article } = await requireArticleToEdit(request, params.id ?? "");
  const [categories, { flash, headers }, note, previewLink] = await Promise.all([
    listCategoryChoices(),
    takeFlash(request),
    latestDeskNote({ id: article.id }),
    previewLinkState({ actor: user, articleId: article.id }), // issue 31 item 10
  ]);
  return data(
    {
      article: { id: article.id, slug: article.slug, status: article.status, version: article.version },
      values: toValues(article),
      categories,
      canPublish: user.role !== "reporter",
      commentsMode: (await getCommentsMode({ articleId: article.id })) ?? "open",
      flash,
      bylines: { ...(await bylineEditorData({ articleId: article.id, actor: user })), noindex: article.noindex }, // issue 29
      science: savedScienceValues(article), // issue 29
      crossref: crossrefEnabled(),
      previewLink,
      // The editorial desk (issue 14): desk-panel.tsx.
      desk: {
        article: { id: article.id, status: article.status, published_at: article.published_at },
        note,
        isAuthor: article.author?.id === user.id,
        minLocal: isoToKyivLocal(new Date().toISOString()),
      },
    },
    { headers },
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { user } = await requireArticleToEdit(request, params.id ?? "");
  return handleEditorAction({ request, actor: user, id: params.id, context });
}

export default function EditArticle() {
  const { article, values, categories, canPublish, flash, desk, commentsMode, science, crossref, previewLink } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <ArticleEditor
      key={`${article.id}-${article.version}`}
      mode="edit"
      saved={values}
      result={result}
      categories={categories}
      canPublish={canPublish}
      flash={flash}
      draftKey={article.id}
      publicUrl={article.status === "published" ? `/article/${article.slug}` : null}
      science={
        <ScienceFields values={result?.science ?? science} published={article.status === "published"} errors={result?.errors ?? {}} crossref={crossref} />
      }
      tools={
        <>
          <DeskNotice article={desk.article} note={desk.note} />
          <DeskPanel {...desk} canPublish={canPublish} />
          <HistoryPanel articleId={article.id} version={article.version} />
          <PreviewLinkButton key={previewLink?.expires_at ?? "none"} articleId={article.id} live={previewLink} />
          {canPublish ? <CommentsModeControl articleId={article.id} mode={commentsMode} /> : null}
          <NewsletterSendButton articleId={article.id} published={article.status === "published"} canSend={canPublish} />
        </>
      }
    />
  );
}

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

/** SPEC §8 'Articles': when the article cannot be loaded, the user may still create a new one. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 403) return <AccessDenied />;
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section className="admin-card" role="alert">
      <h2>{notFound ? "Статтю не знайдено" : "Помилка завантаження статті"}</h2>
      <p>
        {notFound ? "Такої статті немає або її видалено." : "Не вдалося завантажити статтю."} Ви можете{" "}
        <Link to="/admin/articles/new">створити нову статтю</Link> або повернутися до <Link to="/admin/articles">списку статей</Link>.
      </p>
    </section>
  );
}
