import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import type { AdminHandle } from "~/components/admin/nav";
import { createPage, deletePage, getPageById, listPages, PageInputSchema, updatePage } from "~/models/page.server";
import { requireRole } from "~/services/auth.server";
import { redirectWithFlash, takeFlash } from "~/services/flash.server";
import { warmCpuPool } from "~/utils/cpu-pool.server";
import { DomainError } from "~/utils/errors";
import { formFailureOf } from "~/utils/forms";
import { domainErrorFields, formFailure, formValues, parseForm } from "~/utils/forms.server";
import { formIntent, UNKNOWN_INTENT } from "~/utils/intent";
import { SCREEN_ROLES } from "~/utils/roles";
import { PageForm } from "./page-form";

// Static pages (issue 31 item 5, DESIGN §17): the list, a new page (`?new=1`), editing (`?edit={id}`)
// and deleting; plain forms, the same without JavaScript. Admins and editors.

const TITLE = "Сторінки";
export const handle: AdminHandle = { title: TITLE };
export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, SCREEN_ROLES["/admin/pages"]);
  warmCpuPool(); // a page's save renders its markdown in the CPU worker
  const editId = new URL(request.url).searchParams.get("edit");
  const editing = editId ? await getPageById({ id: editId }) : undefined;
  if (editId && !editing) throw new Response("Not found", { status: 404 });
  const [pages, { flash, headers }] = await Promise.all([listPages(), takeFlash(request)]);
  return data({ pages: pages.map((p) => ({ id: p.id, title: p.title, slug: p.slug, status: p.status })), editing: editing ?? null, flash }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireRole(request, SCREEN_ROLES["/admin/pages"]);
  const form = await request.formData();
  const intent = formIntent(form, ["create", "update", "delete"]);
  const values = formValues(form);
  const id = String(form.get("id") ?? "");
  const done = (message: string) => redirectWithFlash(request, "/admin/pages", message);
  try {
    if (intent === "delete") {
      const page = await getPageById({ id });
      await deletePage({ actor, id });
      return done(`Сторінку «${page?.title ?? ""}» видалено`);
    }
    if (intent === "create" || intent === "update") {
      const parsed = parseForm(PageInputSchema, form);
      if (!parsed.ok) return formFailure({ ...parsed, values }, 422, { intent });
      const page = intent === "create" ? await createPage({ actor, input: parsed.data }) : await updatePage({ actor, id, input: parsed.data });
      return done(`Сторінку «${page.title}» збережено`);
    }
    return formFailure({ values, formError: UNKNOWN_INTENT }, 400, { intent });
  } catch (error) {
    if (error instanceof DomainError) return formFailure({ values, ...domainErrorFields(error) }, error.status, { intent });
    throw error;
  }
}

export default function PagesScreen() {
  const { pages, editing, flash } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = formFailureOf(result);
  const [searchParams] = useSearchParams();
  const busy = useNavigation().state === "submitting";
  const creating = searchParams.get("new") === "1";
  return (
    <section className="admin-card" aria-labelledby="pages-title">
      <div className="toolbar">
        <h2 id="pages-title">{TITLE}</h2>
        <Link to="?new=1" className="button button-primary">
          Нова сторінка
        </Link>
      </div>
      {flash ? (
        <p className="flash flash-ok" role="status">
          {flash}
        </p>
      ) : null}
      {failure?.formError && result?.intent === "delete" ? (
        <p className="form-error" role="alert">
          {failure.formError}
        </p>
      ) : null}
      {pages.length ? (
        <div className="table-wrap">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">Заголовок</th>
                <th scope="col">Адреса</th>
                <th scope="col">Статус</th>
                <th scope="col">
                  <span className="visually-hidden">Дії</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {pages.map((p) => (
                <tr key={p.id}>
                  <td>{p.title}</td>
                  <td>{p.status === "published" ? <a href={`/page/${p.slug}`}>/page/{p.slug}</a> : <span className="muted">/page/{p.slug}</span>}</td>
                  <td>
                    <span className={p.status === "published" ? "status status-ok" : "status status-off"}>
                      {p.status === "published" ? "Опубліковано" : "Чернетка"}
                    </span>
                  </td>
                  <td>
                    <div className="row-actions">
                      <Link to={`?edit=${p.id}`} className="button button-secondary button-small" aria-label={`Редагувати: ${p.title}`}>
                        Редагувати
                      </Link>
                      <Form
                        method="post"
                        onSubmit={(event) => {
                          if (!window.confirm(`Видалити сторінку «${p.title}»?`)) event.preventDefault();
                        }}
                      >
                        <input type="hidden" name="id" value={p.id} />
                        <button type="submit" name="intent" value="delete" className="button button-danger button-small" aria-label={`Видалити: ${p.title}`}>
                          Видалити
                        </button>
                      </Form>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">Сторінок ще немає. Створіть першу: «Нова сторінка».</p>
      )}
      {creating || editing ? (
        <PageForm
          key={editing?.id ?? "new"}
          page={editing}
          busy={busy}
          errors={result?.intent !== "delete" ? failure?.errors : undefined}
          values={result?.intent !== "delete" ? failure?.values : undefined}
          formError={result?.intent !== "delete" ? failure?.formError : undefined}
        />
      ) : null}
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
