import { Form, Link } from "@remix-run/react";
import { Field } from "~/components/ui/field";
import { RouteDialog } from "~/components/ui/route-dialog";
import type { MediaItem } from "~/models/media.server";
import type { FormFailure } from "~/utils/forms";
import { thumb } from "./upload-tab";

/** The dialog that sets what an image shows (its alt text), as a form that works without JavaScript. */
export function AltDialog({ item, closeTo, failure, maxLength }: { item: MediaItem; closeTo: string; failure?: FormFailure; maxLength: number }) {
  return (
    <RouteDialog title={`Опис зображення «${item.name}»`} titleId="alt-dialog-title" closeTo={closeTo} returnFocus={`a[href*="alt=${item.id}"]`}>
      <Form method="post" action={closeTo} className="form" noValidate>
        <input type="hidden" name="intent" value="alt" />
        <input type="hidden" name="id" value={item.id} />
        <img src={thumb(item.url)} alt="" className="alt-preview" />
        <Field
          label="Опис (alt)"
          name="alt"
          defaultValue={failure?.values.alt ?? item.alt ?? ""}
          maxLength={maxLength}
          error={failure?.errors.alt}
          hint="Що на зображенні, для читачів, які його не бачать. Його підставляє «Markdown» при вставленні в статтю."
          autoFocus
        />
        {failure?.formError ? (
          <p className="form-error" role="alert">
            {failure.formError}
          </p>
        ) : null}
        <div className="dialog-actions">
          <Link to={closeTo} className="button button-secondary">
            Скасувати
          </Link>
          <button type="submit" className="button button-primary">
            Зберегти опис
          </button>
        </div>
      </Form>
    </RouteDialog>
  );
}
