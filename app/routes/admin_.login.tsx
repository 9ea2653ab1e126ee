import { redirect, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { Field } from "~/components/ui/field";
import { getSettings } from "~/models/settings.server";
import { authenticate, getUser, LoginSchema } from "~/services/auth.server";
import { startCookieSession } from "~/services/session.server";
import { beginSecondStep } from "~/services/sign-in.server";
import { SECOND_STEP_PATH, TWO_FACTOR_PATH } from "~/utils/auth-paths";
import { formFailureOf } from "~/utils/forms";
import { formFailure, parseForm } from "~/utils/forms.server";
import { safePath } from "~/utils/safe-path";

const DEMO_CREDENTIALS = [
  { role: "admin", username: "admin", password: "admin123" },
  { role: "editor", username: "editor", password: "editor123" },
  { role: "reporter", username: "reporter", password: "reporter123" },
];

const afterLogin = (to: FormDataEntryValue | string | null | undefined) => safePath(to, "/admin/dashboard", "/admin");

// A refused sign-in tells the client when to try again, on the page as in the API (SECURITY.md 'Lockout').
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers();
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (await getUser(request)) throw redirect(afterLogin(url.searchParams.get("redirectTo")));
  const seed = await getSettings("seed");
  return { demo: seed.demo_users ? DEMO_CREDENTIALS : [] };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData();
  const parsed = parseForm(LoginSchema, form);
  if (!parsed.ok) return formFailure(parsed, 400);
  const { username, password } = parsed.data;
  const result = await authenticate({ username, password, request });
  if (!result.ok) {
    return formFailure(
      { values: { username }, formError: result.message },
      { status: result.status, headers: result.retryAfter ? { "Retry-After": String(result.retryAfter) } : undefined },
    );
  }
  const to = afterLogin(form.get("redirectTo"));
  // A person with a second factor gets no session yet: only the code screen's cookie (docs/decisions/023).
  if (result.next === "code") {
    return redirect(SECOND_STEP_PATH, { headers: { "Set-Cookie": await beginSecondStep(request, result.user, to) } });
  }
  // A fresh session at every sign-in (no fixation): the old one, if any, is deleted. Someone the
  // settings require to enrol in two-factor goes to enrolment first.
  const headers = await startCookieSession(request, result.user.id);
  return redirect(result.next === "enrol" ? TWO_FACTOR_PATH : to, { headers });
}

export default function LoginPage() {
  const { demo } = useLoaderData<typeof loader>();
  const failure = formFailureOf(useActionData<typeof action>());
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const submitting = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  const errors = failure?.errors ?? {};

  return (
    <main id="main" className="login-page">
      <div className="login-card">
        <h1>Admin Panel</h1>
        <p className="muted">Увійдіть, щоб керувати сайтом «Наука UA».</p>
        <Form method="post" className="form" noValidate={false}>
          <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
          <Field
            label="Ім'я користувача"
            name="username"
            autoComplete="username"
            required
            autoFocus
            defaultValue={failure?.values.username}
            error={errors.username}
          />
          <Field label="Пароль" name="password" type="password" autoComplete="current-password" required error={errors.password} />
          {failure?.formError ? (
            <p className="form-error" role="alert">
              {failure.formError}
            </p>
          ) : null}
          <button type="submit" className="button button-primary" disabled={submitting}>
            {submitting ? "Signing in..." : "Sign in"}
          </button>
        </Form>
        <p>
          <Link to="/admin/forgot-password">Забули пароль?</Link>
        </p>
        {demo.length ? (
          <section className="demo-credentials" aria-labelledby="demo-title">
            <h2 id="demo-title">Demo credentials</h2>
            <ul>
              {demo.map((d) => (
                <li key={d.role}>
                  <strong>{d.role}</strong>: <code>{d.username}</code> / <code>{d.password}</code>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </main>
  );
}

export const meta: MetaFunction = () => [{ title: "Sign in — Admin Panel" }, { name: "robots", content: "noindex" }];
