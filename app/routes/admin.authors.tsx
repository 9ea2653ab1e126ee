import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { AdminHandle } from "~/components/admin/nav";
import { TimedMessage } from "~/components/newsroom/ui";
import { Field } from "~/components/ui/field";
import { createGuestAuthor, deleteGuestAuthor, listGuestAuthors, updateGuestAuthor } from "~/models/guest-authors.server";
import { requireRole } from "~/services/auth.server";
import { redirectWithFlash, takeFlash } from "~/services/flash.server";
import styles from "~/styles/newsroom.css";
import { GuestAuthorSchema, linksText } from "~/utils/bylines";
import { DomainError } from "~/utils/errors";
import { formFailureOf } from "~/utils/forms";
import { domainErrorFields, formFailure, formValues, parseForm } from "~/utils/forms.server";
import { formIntent, UNKNOWN_INTENT } from "~/utils/intent";
import { EDITORS } from "~/utils/roles";

// Guest contributors (issue 29, DESIGN §16): editors and admins add and edit authors who have no
// account; the editor's byline panel offers them. Plain forms: everything works without JavaScript.
const TITLE = "Автори";
export const handle: AdminHandle = { title: TITLE };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, EDITORS);
  const editId = new URL(request.url).searchParams.get("edit");
  const [guests, { flash, headers }] = await Promise.all([listGuestAuthors(), takeFlash(request)]);
  const editing = editId ? guests.find((g) => g.id === editId) : undefined;
  if (editId && !editing) throw new Response("Not found", { status: 404 });
  return data({ guests, editing: editing ?? null, flash }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireRole(request, EDITORS);
  const form = await request.formData();
  const intent = formIntent(form, ["create", "update", "delete"]);
  const values = formValues(form);
  if (!intent) return formFailure({ values, formError: UNKNOWN_INTENT }, 400);
  const id = String(form.get("id") ?? "");
  try {
    if (intent === "delete") {
      await deleteGuestAuthor({ actor, id });
      return redirectWithFlash(request, "/admin/authors", "Автора видалено");
    }
    const parsed = parseForm(GuestAuthorSchema, form);
    if (!parsed.ok) return formFailure({ ...parsed, values }, 422);
    if (intent === "create") {
      await createGuestAuthor({ actor, input: parsed.data });
      return redirectWithFlash(request, "/admin/authors", `Автора «${parsed.data.name}» додано`);
    }
    await updateGuestAuthor({ actor, id, input: parsed.data });
    return redirectWithFlash(request, "/admin/authors", `Автора «${parsed.data.name}» збережено`);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return formFailure({ values, ...domainErrorFields(error) }, error.status);
  }
}

export default function GuestAuthorsScreen() {
  const { guests, editing, flash } = useLoaderData<typeof loader>();
  const failure = formFailureOf(useActionData<typeof action>());
  const busy = useNavigation().state === "submitting";
  const errors = failure?.errors ?? {};
  const v = failure?.values;
  const value = (name: "name" | "slug" | "bio" | "photo" | "links", saved: string) => (v ? (v[name] ?? "") : saved);
  return (
    <section className="admin-card newsroom" aria-labelledby="authors-title">
      <div className="toolbar">
        <h2 id="authors-title">Гостьові автори</h2>
      </div>
      <TimedMessage message={flash} tone="ok" />
      {failure?.formError ? (
        <p className="flash flash-error" role="alert">
          {failure.formError}
        </p>
      ) : null}
      {guests.length === 0 ? (
        <p className="empty-state">Гостьових авторів ще немає. Додайте першого формою нижче.</p>
      ) : (
        <table className="data-table">
          <caption className="visually-hidden">Гостьові автори</caption>
          <thead>
            <tr>
              <th scope="col">Ім&apos;я</th>
              <th scope="col">Сторінка</th>
              <th scope="col">Статей</th>
              <th scope="col">Дії</th>
            </tr>
          </thead>
          <tbody>
            {guests.map((g) => (
              <tr key={g.id}>
                <td>{g.name}</td>
                <td>
                  <a href={`/author/${g.slug}`}>/author/{g.slug}</a>
                </td>
                <td>{g.articles}</td>
                <td className="row-actions">
                  <Link to={`?edit=${g.id}`} className="button button-secondary button-small" aria-label={`Редагувати: ${g.name}`}>
                    Редагувати
                  </Link>
                  {g.articles === 0 ? (
                    <Form method="post">
                      <input type="hidden" name="id" value={g.id} />
                      <button type="submit" name="intent" value="delete" className="button button-danger button-small" aria-label={`Видалити: ${g.name}`}>
                        Видалити
                      </button>
                    </Form>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <Form method="post" className="stack guest-author-form" key={editing?.id ?? "new"} aria-labelledby="guest-form-title">
        <h3 id="guest-form-title">{editing ? `Редагування: ${editing.name}` : "Новий гостьовий автор"}</h3>
        {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
        <Field label="Ім'я" name="name" error={errors.name} defaultValue={value("name", editing?.name ?? "")} maxLength={100} required />
        <Field
          label="Адреса сторінки (slug)"
          name="slug"
          error={errors.slug}
          defaultValue={value("slug", editing?.slug ?? "")}
          hint="Порожньо — з імені"
          maxLength={80}
        />
        <Field
          as="textarea"
          label="Коротка біографія"
          name="bio"
          error={errors.bio}
          defaultValue={value("bio", editing?.bio ?? "")}
          rows={3}
          maxLength={1000}
        />
        <Field label="Фото (адреса з медіатеки або https://…)" name="photo" error={errors.photo} defaultValue={value("photo", editing?.photo ?? "")} />
        <Field
          as="textarea"
          label="Посилання (до 5, кожне з нового рядка: «Назва | https://…»)"
          name="links"
          error={errors.links}
          defaultValue={value("links", editing ? linksText(editing.links) : "")}
          rows={3}
        />
        <div className="row-actions">
          <button type="submit" name="intent" value={editing ? "update" : "create"} className="button button-primary" disabled={busy}>
            {editing ? "Зберегти" : "Додати автора"}
          </button>
          {editing ? (
            <Link to="/admin/authors" className="button button-secondary">
              Скасувати
            </Link>
          ) : null}
        </div>
      </Form>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
