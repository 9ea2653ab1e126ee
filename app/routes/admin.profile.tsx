import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import type { AdminHandle } from "~/components/admin/nav";
import { TimedMessage } from "~/components/newsroom/ui";
import { Field } from "~/components/ui/field";
import { countUnusedRecoveryCodes } from "~/models/two-factor.server";
import { ProfileSchema, updateOwnProfile } from "~/models/user.server";
import { requireUser } from "~/services/auth.server";
import { redirectWithFlash, takeFlash } from "~/services/flash.server";
import { endOtherSessions, endSessionByRef, listSessions, sessionCookieToken } from "~/services/session.server";
import { hasTwoFactor, twoFactorRequiredFor } from "~/services/two-factor.server";
import { TWO_FACTOR_PATH } from "~/utils/auth-paths";
import { DomainError } from "~/utils/errors";
import { formatDateTime } from "~/utils/format";
import { formFailureOf } from "~/utils/forms";
import { domainErrorFields, formFailure, formValues, parseForm } from "~/utils/forms.server";
import { formIntent, UNKNOWN_INTENT } from "~/utils/intent";

// My profile (issue 17): every signed-in person changes their own name, email and password; sees
// whether two-factor sign-in is on (issue 25; managed at /admin/profile/two-factor); and lists
// their sessions and API tokens, ending any one of them or all but this one (issue 25, item 12).
const TITLE = "Мій профіль";

export const handle: AdminHandle = { title: TITLE };

const INTENTS = ["save", "end-session", "end-other-sessions"] as const;
const EndSessionSchema = z.object({
  session: z
    .string({ required_error: "Оберіть сеанс, який завершити", invalid_type_error: "Оберіть сеанс, який завершити" })
    .trim()
    .min(1, "Оберіть сеанс, який завершити")
    .max(100),
});

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { flash, headers } = await takeFlash(request);
  const [enrolled, required, sessions] = await Promise.all([
    hasTwoFactor({ userId: user.id }),
    twoFactorRequiredFor(user.role),
    listSessions({ userId: user.id, currentToken: await sessionCookieToken(request) }),
  ]);
  return data(
    {
      profile: { username: user.username, full_name: user.name ?? "", email: user.email, role: user.role },
      twoFactor: { enrolled, required, remaining: enrolled ? await countUnusedRecoveryCodes({ userId: user.id }) : 0 },
      sessions,
      flash,
    },
    { headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const intent = formIntent(form, INTENTS);
  if (!intent) return formFailure({ formError: UNKNOWN_INTENT }, 400, { intent: undefined });
  const currentToken = await sessionCookieToken(request);

  if (intent === "end-session" || intent === "end-other-sessions") {
    try {
      if (intent === "end-other-sessions") {
        const ended = await endOtherSessions({ actor: user, currentToken });
        return redirectWithFlash(request, "/admin/profile", `Інші сеанси завершено (${ended}). Цей сеанс триває.`);
      }
      const parsed = parseForm(EndSessionSchema, form);
      if (!parsed.ok) return formFailure({ formError: parsed.errors.session }, 422, { intent });
      await endSessionByRef({ actor: user, ref: parsed.data.session, currentToken });
      return redirectWithFlash(request, "/admin/profile", "Сеанс завершено.");
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return formFailure({ formError: error.message }, error.status, { intent });
    }
  }

  // Passwords never come back into the form.
  const { current_password: _current, new_password: _new, new_password_repeat: _repeat, intent: _intent, ...values } = formValues(form);
  const parsed = parseForm(ProfileSchema, form);
  if (!parsed.ok) return formFailure({ ...parsed, values }, 422, { intent });
  try {
    await updateOwnProfile({ user, sessionToken: currentToken, changes: parsed.data });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return formFailure({ values, ...domainErrorFields(error) }, error.status, { intent });
  }
  const message = parsed.data.new_password ? "Профіль збережено. Пароль змінено: інші сеанси завершено." : "Профіль збережено";
  return redirectWithFlash(request, "/admin/profile", message);
}

export default function ProfileScreen() {
  const { profile, twoFactor, sessions, flash } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = formFailureOf(result);
  const profileFailure = result?.intent === "save" ? failure : undefined;
  const sessionsFailure = result?.intent === "end-session" || result?.intent === "end-other-sessions" ? failure : undefined;
  const values = profileFailure?.values;
  const errors = profileFailure?.errors ?? {};
  const busy = useNavigation().state === "submitting";
  const others = sessions.filter((s) => !s.current).length;
  return (
    <>
      <section className="admin-card" aria-labelledby="profile-title">
        <h2 id="profile-title">{TITLE}</h2>
        <p className="muted">
          Ім&apos;я користувача: <strong>{profile.username}</strong> · роль: {profile.role}
        </p>
        <TimedMessage message={flash} tone="ok" ms={5000} />
        {failure && !result?.intent ? (
          <p className="form-error" role="alert">
            {failure.formError}
          </p>
        ) : null}
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
            <Field label="Повторіть новий пароль" name="new_password_repeat" type="password" autoComplete="new-password" error={errors.new_password_repeat} />
            <Field
              label="Поточний пароль"
              name="current_password"
              type="password"
              autoComplete="current-password"
              error={errors.current_password}
              hint="Потрібен, щоб змінити email або пароль."
            />
          </fieldset>
          {profileFailure?.formError ? (
            <p className="form-error" role="alert">
              {profileFailure.formError}
            </p>
          ) : null}
          <button type="submit" name="intent" value="save" className="button button-primary" disabled={busy}>
            {busy ? "Збереження…" : "Зберегти профіль"}
          </button>
        </Form>
      </section>

      <section className="admin-card" aria-labelledby="author-page-title">
        <h2 id="author-page-title">Сторінка автора</h2>
        <p>
          <Link to="/admin/profile/author">Біографія, фото й посилання на вашій сторінці автора</Link>
        </p>
      </section>

      <section className="admin-card" aria-labelledby="two-factor-summary-title">
        <h2 id="two-factor-summary-title">Двофакторна перевірка</h2>
        {twoFactor.enrolled ? (
          <p>
            Увімкнено: вхід питає код із застосунку. Невикористаних кодів відновлення: {twoFactor.remaining} з 10.
            {twoFactor.remaining <= 3 ? " Створіть нові, поки ці не скінчилися." : ""}
          </p>
        ) : (
          <p>
            Вимкнено: вхід питає лише пароль.
            {twoFactor.required ? " Адміністратор сайту вимагає двофакторну перевірку для вашої ролі." : " Увімкніть її, щоб захистити обліковий запис."}
          </p>
        )}
        <p>
          <Link to={TWO_FACTOR_PATH}>{twoFactor.enrolled ? "Керувати двофакторною перевіркою" : "Увімкнути двофакторну перевірку"}</Link>
        </p>
      </section>

      <section className="admin-card" aria-labelledby="sessions-title">
        <h2 id="sessions-title">Ваші сеанси</h2>
        <p className="muted small" id="sessions-help">
          Де ви зараз увійшли: браузери й токени API. Незнайомий пристрій чи адреса? Завершіть той сеанс і змініть пароль.
        </p>
        {sessionsFailure?.formError ? (
          <p className="form-error" role="alert">
            {sessionsFailure.formError}
          </p>
        ) : null}
        <div className="table-wrap">
          <table className="data-table sessions-table" aria-describedby="sessions-help">
            <caption className="visually-hidden">Ваші сеанси й токени API</caption>
            <thead>
              <tr>
                <th scope="col">Пристрій</th>
                <th scope="col">Адреса</th>
                <th scope="col">Вхід</th>
                <th scope="col">Остання активність</th>
                <th scope="col">
                  <span className="visually-hidden">Дія</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((s) => (
                <tr key={s.ref} className={s.current ? "current-session" : undefined}>
                  <th scope="row">
                    {s.device}
                    <span className="muted small"> · {s.kind === "bearer" ? "токен API" : "браузер"}</span>
                    {s.current ? <strong className="badge"> Цей сеанс</strong> : null}
                  </th>
                  <td>{s.ip ?? "—"}</td>
                  <td>{formatDateTime(s.created_at)}</td>
                  <td>{formatDateTime(s.last_seen_at)}</td>
                  <td>
                    {s.current ? (
                      <span className="muted small">щоб завершити, натисніть «Вийти»</span>
                    ) : (
                      <Form method="post">
                        <input type="hidden" name="intent" value="end-session" />
                        <input type="hidden" name="session" value={s.ref} />
                        <button
                          type="submit"
                          className="button button-secondary"
                          disabled={busy}
                          aria-label={`Завершити сеанс: ${s.device}, ${s.ip ?? "адреса невідома"}, вхід ${formatDateTime(s.created_at)}`}
                        >
                          Завершити
                        </button>
                      </Form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {others === 0 ? (
          <p className="muted small">Інших сеансів немає.</p>
        ) : (
          <Form method="post">
            <input type="hidden" name="intent" value="end-other-sessions" />
            <button type="submit" className="button button-secondary" disabled={busy}>
              {`Завершити всі інші сеанси (${others})`}
            </button>
          </Form>
        )}
      </section>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
