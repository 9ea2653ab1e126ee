import { Form } from "@remix-run/react";
import { Field } from "~/components/ui/field";
import type { FieldErrors, FormValues } from "~/utils/forms";

// The editor's main action (issue 31 item 1): "Опублікувати зараз" is the default and its button
// says so; choosing "У вказаний час" shows the time field and the "Запланувати…" button instead.
// Which button shows follows the checked radio through CSS (`:has`, newsroom.css), so the
// server-rendered page is right and it works without JavaScript. The time field has no `min`: a
// stale past time left in it must never block publishing now (the server checks a planned time).
// A scheduled article opens with its planned time filled in and "У вказаний час" chosen.

export function PublishForm({
  action,
  busy,
  scheduledLocal,
  errors,
  values,
}: {
  action: string;
  busy: boolean;
  /** The planned time of a scheduled article (Kyiv wall clock, 'yyyy-MM-ddTHH:mm'), or "". */
  scheduledLocal: string;
  errors: FieldErrors;
  values: FormValues;
}) {
  const when = values.when === "at" || values.when === "now" ? values.when : scheduledLocal ? "at" : "now";
  return (
    <Form method="post" action={action} className="desk-form publish-form">
      <fieldset className="desk-when">
        <legend>Коли опублікувати</legend>
        <label>
          <input type="radio" name="when" value="now" defaultChecked={when === "now"} /> Зараз
        </label>
        <label>
          <input type="radio" name="when" value="at" defaultChecked={when === "at"} /> У вказаний час
        </label>
      </fieldset>
      <div className="publish-at-field">
        <Field
          type="datetime-local"
          label="Дата й час публікації (Київ)"
          name="publish_at_local"
          defaultValue={values.publish_at_local ?? scheduledLocal}
          error={errors.publish_at_local}
        />
      </div>
      <button type="submit" name="intent" value="schedule" className="button button-primary publish-now" disabled={busy}>
        Опублікувати зараз
      </button>
      <button type="submit" name="intent" value="schedule" className="button button-primary publish-at" disabled={busy}>
        Запланувати…
      </button>
    </Form>
  );
}
