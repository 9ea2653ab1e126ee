import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useActionData, useLoaderData, useRouteError } from "@remix-run/react";
import type { AdminHandle } from "~/components/admin/nav";
import { AccessDenied } from "~/components/admin/placeholder";
import { DeskNotice, DeskPanel } from "~/components/newsroom/desk-panel";
import { latestDeskNote } from "~/models/article-desk.server";
import { requireArticleToEdit } from "~/services/article-history.server";
import { handleDeskAction } from "~/services/desk-form.server";
import styles from "~/styles/newsroom.css";
import { isoToKyivLocal } from "~/utils/dates";
import { formFailureOf } from "~/utils/forms";

// The editorial desk's own page (issue 14): where the desk forms of the editor post. A success
// goes back to the editor; a failure (a past time, a missing note, a role that may not) is shown
// here with the form filled in, with or without JavaScript.

const TITLE = "Редакція";
export const handle: AdminHandle = { title: TITLE };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, article } = await requireArticleToEdit(request, params.id ?? "");
  return data({
    article: { id: article.id, title: article.title, status: article.status, published_at: article.published_at },
    note: await latestDeskNote({ id: article.id }),
    isAuthor: article.author?.id === user.id,
    canPublish: user.role !== "reporter",
    minLocal: isoToKyivLocal(new Date().toISOString()),
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { user } = await requireArticleToEdit(request, params.id ?? "");
  return handleDeskAction({ request, actor: user, id: params.id ?? "" });
}

export default function DeskPage() {
  const { article, note, isAuthor, canPublish, minLocal } = useLoaderData<typeof loader>();
  const failure = formFailureOf(useActionData<typeof action>());
  return (
    <div className="screen">
      <p>
        <Link to={`/admin/articles/edit/${article.id}`}>← До редактора статті «{article.title}»</Link>
      </p>
      <DeskNotice article={article} note={note} />
      <DeskPanel
        article={article}
        note={note}
        isAuthor={isAuthor}
        canPublish={canPublish}
        minLocal={minLocal}
        errors={failure?.errors}
        values={failure?.values}
        formError={failure?.formError}
      />
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 403) return <AccessDenied />;
  return (
    <section className="admin-card" role="alert">
      <h2>Статтю не знайдено</h2>
      <p>
        Повернутися до <Link to="/admin/articles">списку статей</Link>.
      </p>
    </section>
  );
}
