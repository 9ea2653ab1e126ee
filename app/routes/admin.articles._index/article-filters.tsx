import { Form, Link, useSubmit } from "@remix-run/react";
import { useRef } from "react";
import { Field } from "~/components/ui/field";
import { ARTICLE_STATUSES, STATUS_LABELS, type AdminSort, type ArticleStatus } from "~/utils/newsroom-rules";

/**
 * The article list's filters: a GET form (works without JavaScript: the button applies it); with
 * JavaScript they apply as they change, the search after a pause in typing.
 */
export function ArticleFilters({
  filters,
  categories,
}: {
  filters: { q: string; status: ArticleStatus | ""; category: string; sort: AdminSort; dir: "asc" | "desc" };
  categories: { id: string; name: string }[];
}) {
  const submit = useSubmit();
  const searchTimer = useRef<ReturnType<typeof setTimeout>>();
  const applyFilters = (form: HTMLFormElement | null) => form && submit(form, { replace: true, preventScrollReset: true });
  const filtered = Boolean(filters.q || filters.status || filters.category);
  return (
    <Form method="get" className="filters" role="search" aria-label="Фільтри статей">
      {filters.sort !== "created" || filters.dir !== "desc" ? (
        <>
          <input type="hidden" name="sort" value={filters.sort} />
          <input type="hidden" name="dir" value={filters.dir} />
        </>
      ) : null}
      <Field
        label="Пошук"
        name="q"
        type="search"
        defaultValue={filters.q}
        key={`q-${filters.q}`}
        placeholder="Заголовок, текст, теги"
        onChange={(event) => {
          const form = event.currentTarget.form;
          clearTimeout(searchTimer.current);
          searchTimer.current = setTimeout(() => applyFilters(form), 400);
        }}
      />
      <Field
        as="select"
        label="Статус"
        name="status"
        defaultValue={filters.status}
        key={`s-${filters.status}`}
        onChange={(event) => applyFilters(event.currentTarget.form)}
      >
        <option value="">Усі</option>
        {ARTICLE_STATUSES.map((s) => (
          <option key={s} value={s}>
            {STATUS_LABELS[s]}
          </option>
        ))}
      </Field>
      <Field
        as="select"
        label="Категорія"
        name="category"
        defaultValue={filters.category}
        key={`c-${filters.category}`}
        onChange={(event) => applyFilters(event.currentTarget.form)}
      >
        <option value="">Усі</option>
        {categories.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </Field>
      <button type="submit" className="button button-secondary">
        Шукати
      </button>
      <Link to="/admin/articles" className="button button-secondary" aria-disabled={!filtered || undefined}>
        Clear Filters
      </Link>
    </Form>
  );
}
