import { Field } from "~/components/ui/field";
import type { FieldErrors } from "~/utils/forms";
import { LIMITS } from "~/utils/newsroom-rules";
import type { FieldChange } from "./markdown-toolbar";

/** The editor's SEO title and description, with their counters. */
export function SeoPanel({
  title,
  description,
  errors,
  onTitle,
  onDescription,
}: {
  title: string;
  description: string;
  errors: FieldErrors;
  onTitle: FieldChange;
  onDescription: FieldChange;
}) {
  return (
    <div className="editor-panel">
      <h3>SEO</h3>
      <Field
        label="SEO-заголовок"
        name="seo_title"
        error={errors.seo_title}
        counter={{ value: title, max: LIMITS.seoTitle }}
        value={title}
        onChange={onTitle}
        maxLength={LIMITS.seoTitle}
      />
      <Field
        as="textarea"
        label="SEO-опис"
        name="seo_description"
        error={errors.seo_description}
        counter={{ value: description, max: LIMITS.seoDescription }}
        rows={3}
        value={description}
        onChange={onDescription}
        maxLength={LIMITS.seoDescription}
      />
    </div>
  );
}
