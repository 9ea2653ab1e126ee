import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { Field } from "~/components/ui/field";
import { mailConfigured } from "~/services/mail.server";
import { requestPasswordReset } from "~/services/password-reset.server";
import { LOGIN_PATH } from "~/utils/auth-paths";
import { formFailureOf } from "~/utils/forms";
import { formFailure, parseForm } from "~/utils/forms.server";

// "Forgot password" (issue 31 item 20): with mail set up, a reset link by email (the same answer
// whether the address is known or not); without mail, an administrator resets the password as
// before (Users screen).

const ForgotSchema = z.object({
  email: z.string({ required_error: "Вкажіть email" }).trim().min(1, "Вкажіть email").max(254, "Не більше 254 символів").email("Невірний формат email"),
});

export async function loader(_: LoaderFunctionArgs) {
  return { mail: mailConfigured() };
}

export async function action({ request }: ActionFunctionArgs) {
  if (!mailConfigured()) return { ok: true as const, sent: false };
  const parsed = parseForm(ForgotSchema, await request.formData());
  if (!parsed.ok) return formFailure(parsed, 422);
  await requestPasswordReset({ email: parsed.data.email });
  return { ok: true as const, sent: true };
}

export default function ForgotPassword() {
  const { mail } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = formFailureOf(result);
  const busy = useNavigation().state === "submitting";
  const sent = result && "sent" in result && result.sent;
  return (
    <main id="main" className="login-page">
      <div className="login-card">
        <h1>Відновлення пароля</h1>
        {!mail ? (
          <p role="status">
            Пошту не налаштовано, тож сайт не може надіслати посилання для відновлення. Зверніться до адміністратора: він задасть вам новий пароль у розділі
            «Користувачі».
          </p>
        ) : sent ? (
          <p role="status" className="flash flash-ok">
            Якщо ця адреса належить користувачеві сайту, ми надіслали на неї посилання для відновлення пароля. Воно дійсне одну годину і спрацює один раз. Не
            бачите листа? Перевірте теку «Спам».
          </p>
        ) : (
          <>
            <p className="muted">Вкажіть email свого облікового запису: ми надішлемо посилання, щоб задати новий пароль.</p>
            <Form method="post" className="form">
              <Field label="Email" name="email" type="email" autoComplete="email" required defaultValue={failure?.values.email} error={failure?.errors.email} />
              <button type="submit" className="button button-primary" disabled={busy}>
                Надіслати посилання
              </button>
            </Form>
          </>
        )}
        <p>
          <Link to={LOGIN_PATH}>Повернутися до входу</Link>
        </p>
      </div>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Відновлення пароля — Admin Panel" }, { name: "robots", content: "noindex" }];
