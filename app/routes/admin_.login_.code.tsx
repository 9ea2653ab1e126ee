import { redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { z } from "zod";
import { Field } from "~/components/ui/field";
import { getUser, verifySecondStep } from "~/services/auth.server";
import { startCookieSession } from "~/services/session.server";
import { clearSecondStepCookie, pendingSignIn, spendSecondStep } from "~/services/sign-in.server";
import { LOGIN_PATH } from "~/utils/auth-paths";
import { formFailureOf } from "~/utils/forms";
import { formFailure, parseForm } from "~/utils/forms.server";
import { formIntent, UNKNOWN_INTENT } from "~/utils/intent";
import { TotpCodeSchema } from "~/utils/two-factor-schema";

// The second screen of a sign-in (docs/decisions/023): after the right password of a person with a
// second factor, a code from their app or one of their recovery codes. A plain form; the
// half-signed-in state is the `__signin` cookie's row on the server, five minutes long. Codes are
// never sent back into the page.

const INTENTS = ["code", "recovery"] as const;
const REQUIRED = "Обов'язкове поле";
const CodeSchema = TotpCodeSchema;
const RecoverySchema = z.object({
  recovery_code: z
    .string({ required_error: REQUIRED, invalid_type_error: REQUIRED })
    .trim()
    .min(1, "Введіть один із кодів відновлення")
    .max(64, "Код відновлення має 16 знаків (наприклад, abcd-efgh-jkmn-pqrs)"),
});
const EXPIRED = "Час на введення коду минув (5 хвилин) або вхід уже завершено. Увійдіть знову з паролем.";

export const headers: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers();
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

// Without a sign-in waiting for its code (none, expired, or already finished) the screen says so
// and links to the password; it does not redirect, so a refused post still shows its own message.
export async function loader({ request }: LoaderFunctionArgs) {
  if (await getUser(request)) throw redirect("/admin/dashboard");
  return { pending: Boolean(await pendingSignIn(request)) };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const intent = formIntent(form, INTENTS);
  if (!intent) return formFailure({ formError: UNKNOWN_INTENT }, 400, { intent: undefined, expired: false });
  const pending = await pendingSignIn(request);
  if (!pending) return formFailure({ formError: EXPIRED }, 401, { intent, expired: true });

  const parsed = intent === "code" ? parseForm(CodeSchema, form) : parseForm(RecoverySchema, form);
  // What was typed is never sent back: a code is a credential.
  if (!parsed.ok) return formFailure({ errors: parsed.errors }, 422, { intent, expired: false });
  const code = "code" in parsed.data ? parsed.data.code : parsed.data.recovery_code;
  const result = await verifySecondStep({ user: pending.user, code, request });
  if (!result.ok) {
    const field = intent === "code" ? "code" : "recovery_code";
    const init = { status: result.status, headers: result.retryAfter ? { "Retry-After": String(result.retryAfter) } : undefined };
    // A wrong code is the field's message; a lockout or a closed account is about the whole sign-in.
    const failure = result.status === 401 ? { errors: { [field]: result.message } } : { formError: result.message };
    return formFailure(failure, init, { intent, expired: false });
  }
  // Two tabs sending right codes at once: one of them signs in.
  if (!(await spendSecondStep(pending.token))) return formFailure({ formError: EXPIRED }, 401, { intent, expired: true });
  const headers = await startCookieSession(request, pending.user.id);
  headers.append("Set-Cookie", await clearSecondStepCookie());
  return redirect(pending.challenge.redirectTo ?? "/admin/dashboard", { headers });
}

export default function SecondStepPage() {
  const { pending } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = formFailureOf(result);
  const errors = failure?.errors ?? {};
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  const usedRecovery = result?.intent === "recovery";
  // With JavaScript the page is not reloaded after a refused code: the forms are made afresh, so the
  // field is empty and focused for the next code, as it is without JavaScript.
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (result) setAttempt((n) => n + 1);
  }, [result]);

  return (
    <main id="main" className="login-page">
      <div className="login-card">
        <h1>Двофакторна перевірка</h1>
        {!pending && !result?.expired ? (
          <p className="form-error" role="alert">
            {EXPIRED} <Link to={LOGIN_PATH}>Увійти</Link>
          </p>
        ) : null}
        <p className="muted" id="second-step-help">
          Пароль правильний. Щоб завершити вхід, введіть 6-значний код, який зараз показує ваш застосунок автентифікації.
        </p>
        {failure?.formError ? (
          <p className="form-error" role="alert">
            {failure.formError}
            {result?.expired ? (
              <>
                {" "}
                <Link to={LOGIN_PATH}>Увійти знову</Link>
              </>
            ) : null}
          </p>
        ) : null}
        <Form method="post" className="form" key={`code-${attempt}`}>
          <input type="hidden" name="intent" value="code" />
          <Field
            label="Код підтвердження"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            autoFocus={!usedRecovery}
            error={errors.code}
            hint="6 цифр; код змінюється кожні 30 секунд."
          />
          <button type="submit" className="button button-primary" disabled={busy}>
            Підтвердити
          </button>
        </Form>
        <details className="second-step-recovery" open={usedRecovery}>
          <summary>Немає доступу до застосунку? Використайте код відновлення</summary>
          <Form method="post" className="form" key={`recovery-${attempt}`}>
            <input type="hidden" name="intent" value="recovery" />
            <Field
              label="Код відновлення"
              name="recovery_code"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              required
              autoFocus={usedRecovery}
              error={errors.recovery_code}
              hint="Один із десяти кодів, які ви зберегли під час налаштування. Кожен спрацьовує лише раз."
            />
            <button type="submit" className="button button-secondary" disabled={busy}>
              Увійти з кодом відновлення
            </button>
          </Form>
        </details>
        <p className="small">
          <Link to={LOGIN_PATH}>Увійти під іншим іменем</Link>
        </p>
      </div>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Двофакторна перевірка — Admin Panel" }, { name: "robots", content: "noindex" }];
