import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { safeRedirect } from "remix-utils/safe-redirect";
import { z } from "zod";
import { getSettings } from "~/models/settings.server";
import { authenticate, getUser } from "~/services/auth.server";
import { getSession, sessionStorage } from "~/services/session.server";

const REQUIRED = "Обов'язкове поле";

const LoginFormSchema = z.object({
  username: z.string({ required_error: REQUIRED }).trim().min(1, REQUIRED).max(254),
  password: z.string({ required_error: REQUIRED }).min(1, REQUIRED).max(1024),
  redirectTo: z.string().optional(),
});

type LoginFieldErrors = { username?: string; password?: string };

const DEMO_CREDENTIALS = [
  { role: "admin", username: "admin", password: "admin123" },
  { role: "editor", username: "editor", password: "editor123" },
  { role: "reporter", username: "reporter", password: "reporter123" },
];

const afterLogin = (to: FormDataEntryValue | string | null | undefined) =>
  safeRedirect(typeof to === "string" && to.startsWith("/admin") ? to : null, "/admin/dashboard");

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (await getUser(request)) throw redirect(afterLogin(url.searchParams.get("redirectTo")));
  const seed = await getSettings("seed");
  return { demo: seed.demo_users ? DEMO_CREDENTIALS : [] };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = Object.fromEntries(await request.formData());
  const parsed = LoginFormSchema.safeParse(form);
  if (!parsed.success) {
    const errors = parsed.error.flatten().fieldErrors;
    return data(
      {
        error: null as string | null,
        fieldErrors: { username: errors.username?.[0], password: errors.password?.[0] } as LoginFieldErrors,
        username: String(form.username ?? ""),
      },
      { status: 400 },
    );
  }
  const { username, password, redirectTo } = parsed.data;
  const result = await authenticate({ username, password, request });
  if (!result.ok) {
    return data(
      { error: result.message as string | null, fieldErrors: {} as LoginFieldErrors, username },
      {
        status: result.status,
        headers: result.retryAfter ? { "Retry-After": String(result.retryAfter) } : undefined,
      },
    );
  }
  // A fresh session at every sign-in (no fixation): the old one, if any, is deleted.
  const storage = sessionStorage();
  const previous = await getSession(request);
  const headers = new Headers();
  if (previous.id) headers.append("Set-Cookie", await storage.destroySession(previous));
  const session = await storage.getSession();
  session.set("userId", result.user.id);
  headers.append("Set-Cookie", await storage.commitSession(session));
  return redirect(afterLogin(redirectTo), { headers });
}

export default function LoginPage() {
  const { demo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const submitting = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  const fieldErrors: LoginFieldErrors = actionData?.fieldErrors ?? {};

  return (
    <main id="main" className="login-page">
      <div className="login-card">
        <h1>Admin Panel</h1>
        <p className="muted">Увійдіть, щоб керувати сайтом «Наука UA».</p>
        <Form method="post" className="form" noValidate={false}>
          <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
          <div className="field">
            <label htmlFor="username">Ім'я користувача</label>
            <input
              id="username"
              name="username"
              type="text"
              autoComplete="username"
              required
              autoFocus
              defaultValue={actionData?.username}
              aria-invalid={fieldErrors.username ? true : undefined}
              aria-describedby={fieldErrors.username ? "username-error" : undefined}
            />
            {fieldErrors.username ? (
              <p id="username-error" className="field-error">
                {fieldErrors.username}
              </p>
            ) : null}
          </div>
          <div className="field">
            <label htmlFor="password">Пароль</label>
            <input
              id="password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              aria-invalid={fieldErrors.password ? true : undefined}
              aria-describedby={fieldErrors.password ? "password-error" : undefined}
            />
            {fieldErrors.password ? (
              <p id="password-error" className="field-error">
                {fieldErrors.password}
              </p>
            ) : null}
          </div>
          {actionData?.error ? (
            <p className="form-error" role="alert">
              {actionData.error}
            </p>
          ) : null}
          <button type="submit" className="button button-primary" disabled={submitting}>
            {submitting ? "Signing in..." : "Sign in"}
          </button>
        </Form>
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
