import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { AdminHandle } from "~/components/admin/nav";
import { TimedMessage } from "~/components/newsroom/ui";
import { Field } from "~/components/ui/field";
import { ProfileSchema, updateOwnProfile } from "~/models/user.server";
import { requireUser } from "~/services/auth.server";
import { redirectWithFlash, takeFlash } from "~/services/flash.server";
import { getSession } from "~/services/session.server";
import { DomainError } from "~/utils/errors";
import { formFailureOf } from "~/utils/forms";
import { domainErrorFields, formFailure, formValues, parseForm } from "~/utils/forms.server";

// My profile (issue 17): every signed-in person changes their own name, email and password.
const TITLE = "Мій профіль";

export const handle: AdminHandle = { title: TITLE };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { flash, headers } = await takeFlash(request);
  return data({ profile: { username: user.username, full_name: user.name ?? "", email: user.email, role: user.role }, flash }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  // Passwords never come back into the form.
  const { current_password: _current, new_password: _new, ...values } = formValues(form);
  const parsed = parseForm(ProfileSchema, form);
  if (!parsed.ok) return formFailure({ ...parsed, values }, 422);
  try {
    const session = await getSession(request);
    await updateOwnProfile({ user, sessionToken: session.id || undefined, changes: parsed.data });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return formFailure({ values, ...domainErrorFields(error) }, error.status);
  }
  const message = parsed.data.new_password ? "Профіль збережено. Пароль змінено: інші сеанси завершено." : "Профіль збережено";
  return redirectWithFlash(request, "/admin/profile", message);
}

export default function ProfileScreen() {
  const { profile, flash } = useLoaderData<typeof loader>();
  const failure = formFailureOf(useActionData<typeof action>());
  const values = failure?.values;
  const errors = failure?.errors ?? {};
  const busy = useNavigation().state === "submitting";
  return (
    <section className="admin-card" aria-labelledby="profile-title">
      <h2 id="profile-title">{TITLE}</h2>
      <p className="muted">
        Ім&apos;я користувача: <strong>{profile.username}</strong> · роль: {profile.role}
      </p>
      <TimedMessage message={flash} tone="ok" ms={5000} />
      <Form method="post" className="form profile-form" noValidate>
        <Field
          label="Ім'я"
          name="full_name"
          defaultValue={values?.full_name ?? profile.full_name}
          maxLength={100}
          error={errors.full_name}
          autoComplete="name"
        />
        <Field label="Email" name="email" type="email" defaultValue={values?.email ?? profile.email} error={errors.email} autoComplete="email" required />
        <fieldset className="profile-password">
          <legend>Пароль</legend>
          <Field
            label="Новий пароль"
            name="new_password"
            type="password"
            autoComplete="new-password"
            error={errors.new_password}
            hint="Залиште порожнім, щоб не змінювати. Новий пароль завершує ваші сеанси на інших пристроях."
          />
          <Field
            label="Поточний пароль"
            name="current_password"
            type="password"
            autoComplete="current-password"
            error={errors.current_password}
            hint="Потрібен, щоб змінити email або пароль."
          />
        </fieldset>
        {failure?.formError ? (
          <p className="form-error" role="alert">
            {failure.formError}
          </p>
        ) : null}
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? "Збереження…" : "Зберегти профіль"}
        </button>
      </Form>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
