import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { AdminHandle } from "~/components/admin/nav";
import { TimedMessage } from "~/components/newsroom/ui";
import { Field } from "~/components/ui/field";
import { getOwnAuthorProfile, updateOwnAuthorProfile } from "~/models/guest-authors.server";
import { requireUser } from "~/services/auth.server";
import { redirectWithFlash, takeFlash } from "~/services/flash.server";
import { AuthorProfileSchema, linksText } from "~/utils/bylines";
import { formFailureOf } from "~/utils/forms";
import { formFailure, formValues, parseForm } from "~/utils/forms.server";

// My author page (issue 29): every staff member edits the bio, photo and links their public
// page /author/{slug} shows.
const TITLE = "Моя сторінка автора";
export const handle: AdminHandle = { title: TITLE };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [profile, { flash, headers }] = await Promise.all([getOwnAuthorProfile(user.id), takeFlash(request)]);
  return data({ profile, flash }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireUser(request);
  const form = await request.formData();
  const parsed = parseForm(AuthorProfileSchema, form);
  if (!parsed.ok) return formFailure({ ...parsed, values: formValues(form) }, 422);
  await updateOwnAuthorProfile({ actor, input: parsed.data });
  return redirectWithFlash(request, "/admin/profile/author", "Сторінку автора збережено");
}

export default function AuthorProfileScreen() {
  const { profile, flash } = useLoaderData<typeof loader>();
  const failure = formFailureOf(useActionData<typeof action>());
  const busy = useNavigation().state === "submitting";
  const errors = failure?.errors ?? {};
  const v = failure?.values;
  return (
    <section className="admin-card newsroom" aria-labelledby="author-profile-title">
      <h2 id="author-profile-title">{TITLE}</h2>
      <TimedMessage message={flash} tone="ok" />
      <p className="muted">
        {profile.slug ? (
          <>
            Ваша сторінка: <a href={`/author/${profile.slug}`}>/author/{profile.slug}</a> (з&apos;являється, щойно вийде ваша перша стаття).
          </>
        ) : (
          "Сторінка автора з'явиться, щойно вийде ваша перша стаття."
        )}
      </p>
      <Form method="post" className="stack">
        <Field
          as="textarea"
          label="Коротка біографія"
          name="bio"
          error={errors.bio}
          defaultValue={v ? (v.bio ?? "") : (profile.bio ?? "")}
          rows={4}
          maxLength={1000}
        />
        <Field label="Фото (адреса з медіатеки або https://…)" name="photo" error={errors.photo} defaultValue={v ? (v.photo ?? "") : (profile.photo ?? "")} />
        <Field
          as="textarea"
          label="Посилання (до 5, кожне з нового рядка: «Назва | https://…»)"
          name="links"
          error={errors.links}
          defaultValue={v ? (v.links ?? "") : linksText(profile.links)}
          rows={3}
        />
        <div className="row-actions">
          <button type="submit" className="button button-primary" disabled={busy}>
            Зберегти
          </button>
          <Link to="/admin/profile" className="button button-secondary">
            До профілю
          </Link>
        </div>
      </Form>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
