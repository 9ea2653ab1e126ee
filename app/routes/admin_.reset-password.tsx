import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { Field } from "~/components/ui/field";
import { completePasswordReset, resetTokenValid } from "~/models/password-reset.server";
import { hashPassword, NewPasswordSchema } from "~/models/user.server";
import { actorAddress } from "~/services/auth.server";
import { LOGIN_PATH } from "~/utils/auth-paths";
import { formFailureOf } from "~/utils/forms";
import { formFailure, parseForm } from "~/utils/forms.server";

// The reset link's page (issue 31 item 20): a new password, twice. The token travels in the query
// of the link and in a hidden field of the form; it works once, within an hour, and using it ends
// every session of the person (app/models/password-reset.server.ts).

// Built on the server only: NewPasswordSchema lives in a .server module (empty in the browser).
const resetSchema = () =>
  z
    .object({
      token: z.string().default(""),
      password: z.string({ required_error: "Вкажіть новий пароль" }).min(1, "Вкажіть новий пароль").pipe(NewPasswordSchema),
      confirm: z.string().default(""),
    })
    .refine((v) => v.password === v.confirm, { message: "Паролі не збігаються", path: ["confirm"] });

const INVALID = "Посилання недійсне: воно вже використане або минула година. Попросіть нове на сторінці «Забули пароль?».";

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, valid: await resetTokenValid({ token }) };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const parsed = parseForm(resetSchema(), form);
  if (!parsed.ok) return formFailure(parsed, 422);
  const done = await completePasswordReset({ token: parsed.data.token, passwordHash: await hashPassword(parsed.data.password), ip: actorAddress(request) });
  if (!done) return formFailure({ formError: INVALID }, 410);
  return { ok: true as const, done: true };
}

export default function ResetPassword() {
  const { token, valid } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = formFailureOf(result);
  const busy = useNavigation().state === "submitting";
  const done = result && "done" in result;
  return (
    <main id="main" className="login-page">
      <div className="login-card">
        <h1>Новий пароль</h1>
        {done ? (
          <p role="status" className="flash flash-ok">
            Пароль змінено. Усі ваші сеанси завершено: увійдіть з новим паролем.
          </p>
        ) : !valid && !failure ? (
          <p role="alert" className="form-error">
            {INVALID}
          </p>
        ) : (
          <Form method="post" className="form">
            <input type="hidden" name="token" value={token} />
            <Field label="Новий пароль" name="password" type="password" autoComplete="new-password" required error={failure?.errors.password} />
            <Field label="Повторіть пароль" name="confirm" type="password" autoComplete="new-password" required error={failure?.errors.confirm} />
            {failure?.formError ? (
              <p className="form-error" role="alert">
                {failure.formError}
              </p>
            ) : null}
            <button type="submit" className="button button-primary" disabled={busy}>
              Зберегти пароль
            </button>
          </Form>
        )}
        <p>
          <Link to={done ? LOGIN_PATH : "/admin/forgot-password"}>{done ? "Увійти" : "Попросити нове посилання"}</Link>
        </p>
      </div>
    </main>
  );
}

export const meta: MetaFunction = () => [
  { title: "Новий пароль — Admin Panel" },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "same-origin" },
];
