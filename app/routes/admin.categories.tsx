import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";
import type { AdminHandle } from "~/components/admin/nav";
import { ConfirmStep, TimedMessage } from "~/components/newsroom/ui";
import { Field } from "~/components/ui/field";
import { RouteDialog } from "~/components/ui/route-dialog";
import { createCategory, deleteCategory, getCategoryById, listCategories, updateCategory } from "~/models/category.server";
import { requireRole, requireUser } from "~/services/auth.server";
import { redirectWithFlash, takeFlash } from "~/services/flash.server";
import styles from "~/styles/newsroom.css";
import { DomainError } from "~/utils/errors";
import { formatDate } from "~/utils/format";
import { formFailureOf, type FormFailure, type FormValues } from "~/utils/forms";
import { domainErrorFields, formFailure, formValues, parseForm } from "~/utils/forms.server";
import { formIntent, UNKNOWN_INTENT } from "~/utils/intent";
import { CategoryInputSchema, LIMITS } from "~/utils/newsroom-rules";

const TITLE = "Категорії";
export const handle: AdminHandle = { title: TITLE };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request); // DESIGN §5: every role reads categories
  const url = new URL(request.url);
  const editId = url.searchParams.get("edit");
  const editing = editId ? await getCategoryById({ id: editId }) : undefined;
  if (editId && !editing) throw new Response("Not found", { status: 404 });
  const [{ categories }, { flash, headers }] = await Promise.all([listCategories({ limit: 1000 }), takeFlash(request)]);
  return data({ categories, editing: editing ?? null, canWrite: user.role !== "reporter", flash }, { headers });
}

const FAILED = { create: "Failed to create category", update: "Failed to update category", delete: "Failed to delete category" } as const;

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireRole(request, ["admin", "editor"]);
  const form = await request.formData();
  const intent = formIntent(form, ["create", "update", "delete"]);
  const id = String(form.get("id") ?? "");
  const values = formValues(form);
  if (!intent) return formFailure({ values, formError: UNKNOWN_INTENT }, 400, { intent: undefined });
  try {
    if (intent === "delete") {
      const category = await getCategoryById({ id });
      if (!category) throw new DomainError(404, "Категорію не знайдено");
      if (form.get("confirmed") !== "1") return { ok: true as const, intent, confirm: { id, name: category.name } };
      await deleteCategory({ actor, id });
      return redirectWithFlash(request, "/admin/categories", `Категорію «${category.name}» успішно видалено`);
    }
    const parsed = parseForm(CategoryInputSchema, {
      name: values.name ?? "",
      description: values.description ?? "",
      slug: intent === "update" ? (values.slug ?? "") : undefined,
    });
    if (!parsed.ok) return formFailure({ ...parsed, values }, 422, { intent });
    if (intent === "create") {
      const category = await createCategory({ actor, input: parsed.data });
      return redirectWithFlash(request, "/admin/categories", `Категорію «${category.name}» успішно створено`);
    }
    const category = await updateCategory({ actor, id, input: parsed.data });
    return redirectWithFlash(request, "/admin/categories", `Категорію «${category.name}» успішно оновлено`);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return formFailure({ values, ...domainErrorFields(error, `${FAILED[intent]}: ${error.message}`) }, error.status, { intent });
  }
}

export default function CategoriesScreen() {
  const { categories, editing, canWrite, flash } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const creating = searchParams.get("new") === "1" && canWrite;
  const failure = formFailureOf(result);
  const confirm = result && "confirm" in result ? result.confirm : null;
  const dialogOpen = creating || Boolean(editing && canWrite);

  return (
    <section className="admin-card newsroom" aria-labelledby="categories-title">
      <div className="toolbar">
        <h2 id="categories-title">{TITLE}</h2>
        {canWrite ? (
          <Link to="?new=1" className="button button-primary" preventScrollReset>
            Add Category
          </Link>
        ) : null}
      </div>
      <TimedMessage message={flash} tone="ok" />
      {failure?.formError && !dialogOpen ? (
        <p className="flash flash-error" role="alert">
          {failure.formError}
        </p>
      ) : null}

      {categories.length === 0 ? (
        <p className="empty-state">No categories found. Create your first category to get started.</p>
      ) : (
        <ul className="category-grid" aria-label="Список категорій">
          {categories.map((c) => (
            <li key={c.id} className="category-card">
              <h3>{c.name}</h3>
              {c.description ? <p className="muted small">{c.description}</p> : null}
              <p className="small">
                <code>{c.slug}</code>
              </p>
              <p className="muted small">
                Створено: {formatDate(c.created_at)} · Статей: {c.article_count}
              </p>
              {canWrite ? (
                <div className="row-actions">
                  <Link to={`?edit=${c.id}`} className="button button-secondary button-small" aria-label={`Edit ${c.name}`} preventScrollReset>
                    Edit
                  </Link>
                  <DeleteCategory id={c.id} name={c.name} />
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}

      {creating ? <CategoryDialog title="Add Category" intent="create" failure={result?.intent === "create" ? failure : undefined} /> : null}
      {editing && canWrite ? (
        <CategoryDialog
          key={editing.id}
          title={`Edit ${editing.name}`}
          intent="update"
          id={editing.id}
          values={{ name: editing.name, description: editing.description ?? "", slug: editing.slug }}
          failure={result?.intent === "update" ? failure : undefined}
        />
      ) : null}
      {confirm ? (
        <ConfirmStep
          question={`Видалити категорію «${confirm.name}»?`}
          fields={{ intent: "delete", id: confirm.id }}
          confirmLabel="Видалити"
          cancelTo="/admin/categories"
          danger
        />
      ) : null}
    </section>
  );
}

function DeleteCategory({ id, name }: { id: string; name: string }) {
  const hydrated = useHydrated();
  return (
    <Form
      method="post"
      onSubmit={(event) => {
        if (!window.confirm(`Видалити категорію «${name}»?`)) event.preventDefault();
      }}
    >
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="confirmed" value={hydrated ? "1" : ""} />
      <button type="submit" name="intent" value="delete" className="button button-danger button-small" aria-label={`Delete ${name}`}>
        Delete
      </button>
    </Form>
  );
}

function CategoryDialog({
  title,
  intent,
  id,
  values: initial,
  failure,
}: {
  title: string;
  intent: "create" | "update";
  id?: string;
  values?: FormValues;
  failure?: FormFailure;
}) {
  const values = failure?.values ?? initial;
  const errors = failure?.errors ?? {};
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <RouteDialog title={title} titleId="category-dialog-title" closeTo="/admin/categories" returnFocus={id ? `a[href$="?edit=${id}"]` : 'a[href$="?new=1"]'}>
      <Form method="post" className="form" noValidate>
        {id ? <input type="hidden" name="id" value={id} /> : null}
        <Field label="Назва" name="name" defaultValue={values?.name} maxLength={LIMITS.categoryName} autoFocus error={errors.name} />
        <Field
          label="Опис"
          name="description"
          as="textarea"
          rows={3}
          defaultValue={values?.description}
          maxLength={LIMITS.categoryDescription}
          error={errors.description}
        />
        {intent === "update" ? <Field label="Slug" name="slug" defaultValue={values?.slug} error={errors.slug} /> : null}
        {failure?.formError ? (
          <p className="form-error" role="alert">
            {failure.formError}
          </p>
        ) : null}
        <div className="dialog-actions">
          <Link to="/admin/categories" className="button button-secondary">
            Скасувати
          </Link>
          <button type="submit" name="intent" value={intent} className="button button-primary" disabled={busy}>
            {busy ? "Збереження…" : intent === "create" ? "Створити" : "Зберегти"}
          </button>
        </div>
      </Form>
    </RouteDialog>
  );
}

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
