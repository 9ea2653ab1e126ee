import { Form, Link } from "@remix-run/react";
import { Field } from "~/components/ui/field";
import type { FieldErrors, FormValues } from "~/utils/forms";

// The create/edit form of /admin/pages (route.tsx): title, address, markdown text, status, SEO.

interface EditedPage {
  id: string;
  title: string;
  slug: string;
  body: string;
  status: string;
  seo_title: string | null;
  seo_description: string | null;
}

export function PageForm({
  page,
  busy,
  errors = {},
  values,
  formError,
}: {
  page: EditedPage | null;
  busy: boolean;
  errors?: FieldErrors;
  values?: FormValues;
  formError?: string;
}) {
  const v = (name: keyof EditedPage) => values?.[name] ?? (page ? String(page[name] ?? "") : "");
  return (
    <section className="admin-card page-form" aria-labelledby="page-form-title">
      <h3 id="page-form-title">{page ? `Редагування: ${page.title}` : "Нова сторінка"}</h3>
      <Form method="post" className="form">
        {page ? <input type="hidden" name="id" value={page.id} /> : null}
        <Field label="Заголовок" name="title" required defaultValue={v("title")} error={errors.title} maxLength={200} />
        <Field
          label="Адреса (slug)"
          name="slug"
          required
          defaultValue={v("slug")}
          error={errors.slug}
          hint="Сторінка буде за адресою /page/адреса"
          maxLength={100}
        />
        <Field as="textarea" label="Текст (Markdown)" name="body" rows={12} defaultValue={v("body")} error={errors.body} />
        <Field as="select" label="Статус" name="status" defaultValue={v("status") || "draft"} error={errors.status}>
          <option value="draft">Чернетка</option>
          <option value="published">Опубліковано</option>
        </Field>
        <Field label="SEO-заголовок" name="seo_title" defaultValue={v("seo_title")} error={errors.seo_title} maxLength={200} />
        <Field
          as="textarea"
          label="SEO-опис"
          name="seo_description"
          rows={2}
          defaultValue={v("seo_description")}
          error={errors.seo_description}
          maxLength={400}
        />
        {formError ? (
          <p className="form-error" role="alert">
            {formError}
          </p>
        ) : null}
        <div className="dialog-actions">
          <Link to="/admin/pages" className="button button-secondary">
            Скасувати
          </Link>
          <button type="submit" name="intent" value={page ? "update" : "create"} className="button button-primary" disabled={busy}>
            {busy ? "Збереження..." : "Зберегти сторінку"}
          </button>
        </div>
      </Form>
    </section>
  );
}
