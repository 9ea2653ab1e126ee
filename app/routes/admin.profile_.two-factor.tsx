import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import type { AdminHandle } from "~/components/admin/nav";
import { TimedMessage } from "~/components/newsroom/ui";
import { Field } from "~/components/ui/field";
import { removeTwoFactor } from "~/models/two-factor.server";
import { passwordMatches } from "~/models/user.server";
import { requireUser } from "~/services/auth.server";
import { redirectWithFlash, takeFlash } from "~/services/flash.server";
import { revokeUserSessions, sessionCookieToken } from "~/services/session.server";
import { beginEnrolment, cancelEnrolment, finishEnrolment, renewRecoveryCodes, twoFactorState } from "~/services/two-factor.server";
import { TWO_FACTOR_PATH } from "~/utils/auth-paths";
import { formatDateTime } from "~/utils/format";
import { formFailureOf } from "~/utils/forms";
import { formFailure, parseForm } from "~/utils/forms.server";
import { formIntent, UNKNOWN_INTENT } from "~/utils/intent";
import { TotpCodeSchema } from "~/utils/two-factor-schema";

// Two-factor sign-in of the signed-in person (issue 25, docs/decisions/023): enrol (scan the QR code
// or type the key, then confirm with a current code), see the ten recovery codes once, make new
// ones, turn it off with the password. Everything works without JavaScript. Someone whom
// Settings → Security requires to enrol is sent here and can do nothing else until they have.

const TITLE = "Двофакторна перевірка";
export const handle: AdminHandle = { title: TITLE };

const INTENTS = ["start", "cancel", "confirm", "renew", "disable"] as const;
type Intent = (typeof INTENTS)[number];
const REQUIRED = "Обов'язкове поле";
const ConfirmSchema = TotpCodeSchema;
const PasswordSchema = z.object({
  password: z.string({ required_error: REQUIRED, invalid_type_error: REQUIRED }).min(1, "Введіть свій пароль").max(1024),
});
const WRONG_PASSWORD = "Пароль невірний";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request, { enrolling: true });
  const { flash, headers } = await takeFlash(request);
  return data({ twoFactor: await twoFactorState(user), flash }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, { enrolling: true });
  const form = await request.formData();
  const intent = formIntent(form, INTENTS);
  const fail = (init: number, failure: { formError?: string; errors?: Record<string, string> }, which: Intent | undefined = intent) =>
    // Nothing typed here (codes, passwords) is ever sent back into the page.
    formFailure(failure, init, { intent: which, codes: undefined });
  if (!intent) return fail(400, { formError: UNKNOWN_INTENT });

  switch (intent) {
    case "start": {
      if (!(await beginEnrolment(user))) return fail(409, { formError: "Двофакторну перевірку вже увімкнено." });
      return redirect(TWO_FACTOR_PATH);
    }
    case "cancel": {
      await cancelEnrolment({ userId: user.id });
      return redirectWithFlash(request, TWO_FACTOR_PATH, "Налаштування скасовано: двофакторну перевірку не увімкнено.");
    }
    case "confirm": {
      const parsed = parseForm(ConfirmSchema, form);
      if (!parsed.ok) return fail(422, { errors: parsed.errors });
      const result = await finishEnrolment(user, parsed.data.code);
      if (!result.ok) {
        return result.reason === "wrong"
          ? fail(422, { errors: { code: "Код не підійшов. Введіть 6 цифр, які застосунок показує зараз (код змінюється кожні 30 секунд)." } })
          : fail(409, { formError: "Налаштування не розпочато або вже завершено. Оновіть сторінку й почніть знову." });
      }
      return { ok: true as const, intent, codes: result.codes };
    }
    case "renew":
    case "disable": {
      const parsed = parseForm(PasswordSchema, form);
      if (!parsed.ok) return fail(422, { errors: parsed.errors });
      if (!(await passwordMatches({ user, password: parsed.data.password }))) return fail(422, { errors: { password: WRONG_PASSWORD } });
      if (intent === "renew") {
        const codes = await renewRecoveryCodes(user);
        if (!codes) return fail(409, { formError: "Двофакторну перевірку не увімкнено: кодів відновлення немає." });
        return { ok: true as const, intent, codes };
      }
      await removeTwoFactor({ actor: user, userId: user.id });
      // Like a new password: whoever else was signed in as this person is signed out (SECURITY.md 'Sessions').
      await revokeUserSessions({ userId: user.id, except: await sessionCookieToken(request) });
      return redirectWithFlash(request, "/admin/profile", "Двофакторну перевірку вимкнено. Інші ваші сеанси завершено.");
    }
  }
}

export default function TwoFactorScreen() {
  const { twoFactor, flash } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = formFailureOf(result);
  const errors = failure?.errors ?? {};
  const busy = useNavigation().state === "submitting";
  const failed = (intent: Intent) => (failure && result?.intent === intent ? failure : undefined);
  const formError = (intent: Intent) =>
    failed(intent)?.formError ? (
      <p className="form-error" role="alert">
        {failed(intent)!.formError}
      </p>
    ) : null;
  const codes = result && "codes" in result && result.codes ? result.codes : undefined;

  if (codes) return <RecoveryCodes codes={codes} renewed={result?.intent === "renew"} />;

  return (
    <section className="admin-card two-factor" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">{TITLE}</h2>
      <TimedMessage message={flash} tone="ok" ms={5000} />
      {twoFactor.required && twoFactor.state !== "on" ? (
        <p className="info-panel" id="two-factor-required">
          Адміністратор сайту вимагає двофакторну перевірку для вашої ролі. Налаштуйте її, щоб продовжити роботу в адмін-панелі; до того доступний лише вихід.
        </p>
      ) : null}
      {failure?.formError && !result?.intent ? (
        <p className="form-error" role="alert">
          {failure.formError}
        </p>
      ) : null}

      {twoFactor.state === "off" ? (
        <>
          <p>
            Окрім пароля, під час входу сайт питатиме 6-значний код із застосунку автентифікації на телефоні (наприклад, Google Authenticator, Aegis, FreeOTP
            або 1Password). Так ніхто не увійде лише з вашим паролем.
          </p>
          {formError("start")}
          <Form method="post">
            <input type="hidden" name="intent" value="start" />
            <button type="submit" className="button button-primary" disabled={busy}>
              Почати налаштування
            </button>
          </Form>
        </>
      ) : null}

      {twoFactor.state === "enrolling" ? (
        <>
          <ol className="two-factor-steps">
            <li>
              <p>Відскануйте QR-код застосунком автентифікації.</p>
              <img src={twoFactor.qr} alt="QR-код для застосунку автентифікації (той самий ключ наведено нижче текстом)" width={200} height={200} />
            </li>
            <li>
              <p>Або введіть ключ у застосунку вручну (тип: за часом, 6 цифр, 30 секунд):</p>
              <p>
                <code id="totp-key" className="totp-key">
                  {twoFactor.key}
                </code>
              </p>
            </li>
            <li>
              <p>Введіть код, який показує застосунок, щоб підтвердити.</p>
              {formError("confirm")}
              <Form method="post" className="form two-factor-confirm">
                <input type="hidden" name="intent" value="confirm" />
                <Field
                  label="Код із застосунку"
                  name="code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  required
                  error={errors.code}
                  hint="6 цифр; код змінюється кожні 30 секунд."
                />
                <button type="submit" className="button button-primary" disabled={busy}>
                  Підтвердити й увімкнути
                </button>
              </Form>
            </li>
          </ol>
          <Form method="post">
            <input type="hidden" name="intent" value="cancel" />
            <button type="submit" className="button button-secondary" disabled={busy}>
              Скасувати налаштування
            </button>
          </Form>
        </>
      ) : null}

      {twoFactor.state === "on" ? (
        <>
          <p>
            Двофакторну перевірку увімкнено {formatDateTime(twoFactor.since)}. Невикористаних кодів відновлення: <strong>{twoFactor.remaining}</strong> з 10.
          </p>
          {!twoFactor.readable ? (
            <p className="form-error" role="alert">
              Ключ двофакторної перевірки на сервері більше не читається (змінився SESSION_SECRET). Вимкніть перевірку й налаштуйте її знову.
            </p>
          ) : null}
          <fieldset className="two-factor-action">
            <legend>Нові коди відновлення</legend>
            <p className="muted small">Старі коди перестануть діяти. Нові буде показано один раз.</p>
            {formError("renew")}
            <Form method="post" className="form">
              <input type="hidden" name="intent" value="renew" />
              <Field
                label="Ваш пароль"
                id="renew-password"
                name="password"
                type="password"
                autoComplete="current-password"
                required
                error={failed("renew") ? errors.password : undefined}
              />
              <button type="submit" className="button button-secondary" disabled={busy}>
                Створити нові коди відновлення
              </button>
            </Form>
          </fieldset>
          <fieldset className="two-factor-action">
            <legend>Вимкнути двофакторну перевірку</legend>
            <p className="muted small">Вхід знову питатиме лише пароль. Інші ваші сеанси буде завершено.</p>
            {formError("disable")}
            <Form method="post" className="form">
              <input type="hidden" name="intent" value="disable" />
              <Field
                label="Ваш пароль"
                id="disable-password"
                name="password"
                type="password"
                autoComplete="current-password"
                required
                error={failed("disable") ? errors.password : undefined}
              />
              <button type="submit" className="button button-danger" disabled={busy}>
                Вимкнути двофакторну перевірку
              </button>
            </Form>
          </fieldset>
        </>
      ) : null}
      {twoFactor.state !== "on" && twoFactor.required ? null : (
        <p>
          <Link to="/admin/profile">Повернутися до профілю</Link>
        </p>
      )}
    </section>
  );
}

/** The ten recovery codes, shown once right after they were made. */
function RecoveryCodes({ codes, renewed }: { codes: string[]; renewed: boolean }) {
  return (
    <section className="admin-card two-factor" aria-labelledby="recovery-title">
      <h2 id="recovery-title">{renewed ? "Нові коди відновлення" : "Двофакторну перевірку увімкнено"}</h2>
      <p role="status">
        {renewed ? "Старі коди більше не діють." : "Відтепер вхід питатиме код із застосунку."} Збережіть ці коди відновлення в надійному місці: кожен дозволяє
        увійти один раз без телефона. Їх показано лише зараз, на сервері зберігаються тільки їхні відбитки.
      </p>
      <ol className="recovery-codes" aria-label="Коди відновлення">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <p>
        <Link to="/admin/dashboard" className="button button-primary">
          Я зберіг коди — до панелі керування
        </Link>{" "}
        <Link to="/admin/profile">До профілю</Link>
      </p>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
