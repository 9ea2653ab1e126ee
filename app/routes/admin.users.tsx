import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import type { ZodError } from "zod";
import type { AdminHandle } from "~/components/admin/nav";
import {
  addUser,
  deleteUser,
  getUserById,
  listUsers,
  toUserView,
  updateUser,
  UserCreateSchema,
  UserUpdateSchema,
} from "~/models/user.server";
import { requireRole } from "~/services/auth.server";
import { DomainError } from "~/utils/errors";
import { formatDateTime as formatDate } from "~/utils/format";
import { ROLES } from "~/utils/roles";
import { getSession, sessionStorage } from "~/services/session.server";

const TITLE = "Користувачі";
export const handle: AdminHandle = { title: TITLE };

type FieldErrors = Partial<Record<"username" | "email" | "full_name" | "role" | "password" | "is_active" | "bio" | "_", string>>;

const firstErrors = (error: ZodError): FieldErrors =>
  Object.fromEntries(Object.entries(error.flatten().fieldErrors).map(([k, v]) => [k, v?.[0]])) as FieldErrors;

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
};

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireRole(request, ["admin"]);
  const url = new URL(request.url);
  const editId = url.searchParams.get("edit");
  const editing = editId ? await getUserById({ id: editId }) : undefined;
  if (editId && !editing) throw new Response("Not found", { status: 404 });
  const { users } = await listUsers();
  const session = await getSession(request);
  const flash = session.get("flash") ?? null;
  return data(
    {
      users: users.map(toUserView),
      currentUserId: actor.id,
      editing: editing ? toUserView(editing) : null,
      flash,
    },
    flash ? { headers: { "Set-Cookie": await sessionStorage().commitSession(session) } } : undefined,
  );
}

async function done(request: Request, message: string) {
  const session = await getSession(request);
  session.flash("flash", message);
  return redirect("/admin/users", { headers: { "Set-Cookie": await sessionStorage().commitSession(session) } });
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireRole(request, ["admin"]);
  const form = await request.formData();
  const intent = text(form, "intent");
  const id = text(form, "id") ?? "";
  try {
    if (intent === "create") {
      const parsed = UserCreateSchema.safeParse({
        username: text(form, "username"),
        email: text(form, "email"),
        full_name: text(form, "full_name"),
        role: text(form, "role"),
        password: text(form, "password"),
      });
      if (!parsed.success) return data({ intent, errors: firstErrors(parsed.error) }, { status: 422 });
      const user = await addUser(parsed.data);
      return done(request, `Користувача ${user.username} створено`);
    }
    if (intent === "update") {
      const password = text(form, "password");
      const parsed = UserUpdateSchema.safeParse({
        email: text(form, "email"),
        full_name: text(form, "full_name"),
        bio: text(form, "bio"),
        role: text(form, "role"),
        is_active: form.get("is_active") === "on",
        password: password ? password : undefined,
      });
      if (!parsed.success) return data({ intent, errors: firstErrors(parsed.error) }, { status: 422 });
      const session = await getSession(request);
      const user = await updateUser({ actor, actorToken: session.id || undefined, id, changes: parsed.data });
      return done(request, `Користувача ${user.username} оновлено`);
    }
    if (intent === "delete") {
      const target = await getUserById({ id });
      await deleteUser({ actor, id });
      return done(request, `Користувача ${target?.username ?? ""} видалено`);
    }
    return data({ intent, errors: { _: "Невідома дія" } as FieldErrors }, { status: 400 });
  } catch (error) {
    if (error instanceof DomainError) {
      const key = (error.field ?? "_") as keyof FieldErrors;
      return data({ intent, errors: { [key]: error.message } as FieldErrors }, { status: error.status });
    }
    throw error;
  }
}

export default function UsersScreen() {
  const { users, currentUserId, editing, flash } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const creating = searchParams.get("new") === "1";
  const errors: FieldErrors = actionData?.errors ?? {};

  return (
    <section className="admin-card" aria-labelledby="users-title">
      <div className="toolbar">
        <h2 id="users-title">{TITLE}</h2>
        <Link to="?new=1" className="button button-primary" preventScrollReset>
          Add User
        </Link>
      </div>
      {flash ? (
        <p className="flash flash-ok" role="status">
          {flash}
        </p>
      ) : null}
      {errors._ && !creating && !editing ? (
        <p className="form-error" role="alert">
          {actionData?.intent === "delete" ? `Failed to delete user: ${errors._}` : errors._}
        </p>
      ) : null}
      <div className="table-wrap">
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              <th scope="col">Last login</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span className="visually-hidden">Дії</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id}>
                <td>
                  <strong>{u.full_name || u.username}</strong>
                  <div className="muted small">
                    @{u.username} · {u.email}
                  </div>
                </td>
                <td>
                  <span className={`role role-${u.role}`}>{u.role}</span>
                </td>
                <td>
                  <span className={u.is_active ? "status status-ok" : "status status-off"}>{u.is_active ? "active" : "inactive"}</span>
                </td>
                <td>{formatDate(u.last_login)}</td>
                <td>{formatDate(u.created_at)}</td>
                <td>
                  <div className="row-actions">
                  <Link to={`?edit=${u.id}`} className="button button-secondary button-small" aria-label={`Edit ${u.username}`} preventScrollReset>
                    Edit
                  </Link>
                  {u.id !== currentUserId ? (
                    <Form
                      method="post"
                      onSubmit={(event) => {
                        if (!window.confirm(`Delete user ${u.username}?`)) event.preventDefault();
                      }}
                    >
                      <input type="hidden" name="id" value={u.id} />
                      <button type="submit" name="intent" value="delete" className="button button-danger button-small" aria-label={`Delete ${u.username}`}>
                        Delete
                      </button>
                    </Form>
                  ) : null}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      {creating ? (
        <UserDialog title="Add User" onCloseTo="/admin/users">
          <Form method="post" className="form" noValidate>
            <Field label="Username" name="username" error={errors.username} required autoFocus autoComplete="off" />
            <Field label="Email" name="email" type="email" error={errors.email} required />
            <Field label="Full name" name="full_name" error={errors.full_name} />
            <RoleSelect error={errors.role} />
            <Field label="Password" name="password" type="password" error={errors.password} required autoComplete="new-password" hint="At least 8 characters" />
            {errors._ ? <p className="form-error" role="alert">{errors._}</p> : null}
            <DialogActions intent="create" label="Create user" busy={busy} />
          </Form>
        </UserDialog>
      ) : null}

      {editing ? (
        <UserDialog title={`Edit ${editing.username}`} onCloseTo="/admin/users">
          <Form method="post" className="form" noValidate key={editing.id}>
            <input type="hidden" name="id" value={editing.id} />
            <Field label="Email" name="email" type="email" error={errors.email} required defaultValue={editing.email} autoFocus />
            <Field label="Full name" name="full_name" error={errors.full_name} defaultValue={editing.full_name ?? ""} />
            <div className="field">
              <label htmlFor="bio">Bio</label>
              <textarea id="bio" name="bio" rows={3} defaultValue={editing.profile.bio ?? ""} />
              {errors.bio ? <p className="field-error">{errors.bio}</p> : null}
            </div>
            <RoleSelect error={errors.role} defaultValue={editing.role} />
            <div className="field field-checkbox">
              <label>
                <input type="checkbox" name="is_active" defaultChecked={editing.is_active} /> Active
              </label>
              {errors.is_active ? <p className="field-error">{errors.is_active}</p> : null}
            </div>
            <Field
              label="New password"
              name="password"
              type="password"
              error={errors.password}
              autoComplete="new-password"
              hint="Leave empty to keep the current password. A new password signs the user out everywhere."
            />
            {errors._ ? <p className="form-error" role="alert">{errors._}</p> : null}
            <DialogActions intent="update" label="Save changes" busy={busy} />
          </Form>
        </UserDialog>
      ) : null}
    </section>
  );
}

/** A modal panel driven by the URL (?new=1, ?edit=id), so it works the same without JavaScript. */
function UserDialog({ title, onCloseTo, children }: { title: string; onCloseTo: string; children: React.ReactNode }) {
  return (
    <div className="dialog-backdrop">
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby="user-dialog-title">
        <div className="toolbar">
          <h3 id="user-dialog-title">{title}</h3>
          <Link to={onCloseTo} className="dialog-close" aria-label="Close">
            ×
          </Link>
        </div>
        {children}
      </div>
    </div>
  );
}

function DialogActions({ intent, label, busy }: { intent: string; label: string; busy: boolean }) {
  return (
    <div className="dialog-actions">
      <Link to="/admin/users" className="button button-secondary">
        Cancel
      </Link>
      <button type="submit" name="intent" value={intent} className="button button-primary" disabled={busy}>
        {busy ? "Saving..." : label}
      </button>
    </div>
  );
}

function Field({
  label,
  name,
  error,
  hint,
  type = "text",
  ...rest
}: { label: string; name: string; error?: string; hint?: string; type?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  const described = [error ? `${name}-error` : null, hint ? `${name}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <input id={name} name={name} type={type} aria-invalid={error ? true : undefined} aria-describedby={described} {...rest} />
      {hint ? (
        <p id={`${name}-hint`} className="muted small">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${name}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function RoleSelect({ error, defaultValue = "reporter" }: { error?: string; defaultValue?: string }) {
  return (
    <div className="field">
      <label htmlFor="role">Role</label>
      <select id="role" name="role" defaultValue={defaultValue} aria-invalid={error ? true : undefined}>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      {error ? <p className="field-error">{error}</p> : null}
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
