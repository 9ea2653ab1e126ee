import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { DeleteUserDialog } from "~/components/admin/delete-user-dialog";
import type { AdminHandle } from "~/components/admin/nav";
import { CheckboxField, Field } from "~/components/ui/field";
import { RouteDialog } from "~/components/ui/route-dialog";
import { articleCountsByAuthor } from "~/models/user-articles.server";
import { addUser, deleteUser, getUserById, listUsers, toUserView, updateUser, UserCreateSchema, UserUpdateSchema } from "~/models/user.server";
import { requireRole } from "~/services/auth.server";
import { redirectWithFlash, takeFlash } from "~/services/flash.server";
import { getSession } from "~/services/session.server";
import { DomainError } from "~/utils/errors";
import { formatDateTime as formatDate } from "~/utils/format";
import { formFailureOf } from "~/utils/forms";
import { domainErrorFields, formFailure, formValues, parseForm } from "~/utils/forms.server";
import { formIntent, UNKNOWN_INTENT } from "~/utils/intent";
import { ROLES, SCREEN_ROLES } from "~/utils/roles";

const TITLE = "Користувачі";
export const handle: AdminHandle = { title: TITLE };

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
};

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireRole(request, SCREEN_ROLES["/admin/users"]);
  const url = new URL(request.url);
  const editId = url.searchParams.get("edit");
  const editing = editId ? await getUserById({ id: editId }) : undefined;
  if (editId && !editing) throw new Response("Not found", { status: 404 });
  const [{ users }, { flash, headers }, counts] = await Promise.all([listUsers(), takeFlash(request), articleCountsByAuthor()]);
  // Issue 31 item 4: deleting someone with articles asks who takes them over (`?delete={id}`).
  const deleteId = url.searchParams.get("delete");
  const deleting = deleteId ? users.find((u) => u.id === deleteId) : undefined;
  if (deleteId && !deleting) throw new Response("Not found", { status: 404 });
  return data(
    {
      users: users.map(toUserView),
      currentUserId: actor.id,
      editing: editing ? toUserView(editing) : null,
      articleCounts: Object.fromEntries(counts),
      deleting: deleting
        ? { id: deleting.id, username: deleting.username, name: deleting.name || deleting.username, articles: counts.get(deleting.id) ?? 0 }
        : null,
      heirs: deleting
        ? users.filter((u) => u.id !== deleting.id && u.is_active === 1).map((u) => ({ id: u.id, username: u.username, name: u.name || u.username }))
        : [],
      flash,
    },
    { headers },
  );
}

const done = (request: Request, message: string) => redirectWithFlash(request, "/admin/users", message);

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireRole(request, SCREEN_ROLES["/admin/users"]);
  const form = await request.formData();
  const intent = formIntent(form, ["create", "update", "delete", "deactivate"]);
  const id = text(form, "id") ?? "";
  const values = formValues(form);
  try {
    if (intent === "create") {
      const parsed = parseForm(UserCreateSchema, {
        username: text(form, "username"),
        email: text(form, "email"),
        full_name: text(form, "full_name"),
        role: text(form, "role"),
        password: text(form, "password"),
      });
      if (!parsed.ok) return formFailure({ ...parsed, values }, 422, { intent });
      const user = await addUser(parsed.data, actor);
      return done(request, `Користувача ${user.username} створено`);
    }
    if (intent === "update") {
      const password = text(form, "password");
      const parsed = parseForm(UserUpdateSchema, {
        email: text(form, "email"),
        full_name: text(form, "full_name"),
        bio: text(form, "bio"),
        role: text(form, "role"),
        is_active: form.get("is_active") === "on",
        password: password ? password : undefined,
      });
      if (!parsed.ok) return formFailure({ ...parsed, values }, 422, { intent });
      const session = await getSession(request);
      const user = await updateUser({ actor, actorToken: session.id || undefined, id, changes: parsed.data });
      return done(request, `Користувача ${user.username} оновлено`);
    }
    if (intent === "delete") {
      const target = await getUserById({ id });
      await deleteUser({ actor, id, reassignTo: text(form, "reassign_to") || undefined });
      return done(request, `Користувача ${target?.username ?? ""} видалено`);
    }
    if (intent === "deactivate") {
      const user = await updateUser({ actor, id, changes: { is_active: false } });
      return done(request, `Користувача ${user.username} деактивовано`);
    }
    return formFailure({ values, formError: UNKNOWN_INTENT }, 400, { intent });
  } catch (error) {
    if (error instanceof DomainError) return formFailure({ values, ...domainErrorFields(error) }, error.status, { intent });
    throw error;
  }
}

export default function UsersScreen() {
  const { users, currentUserId, editing, articleCounts, deleting, heirs, flash } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const creating = searchParams.get("new") === "1";
  const failure = formFailureOf(actionData);
  const errors = failure?.errors ?? {};
  const values = actionData?.intent === (editing ? "update" : "create") ? failure?.values : undefined;

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
      {failure?.formError && !creating && !editing && !deleting ? (
        <p className="form-error" role="alert">
          {actionData?.intent === "delete" ? `Failed to delete user: ${failure.formError}` : failure.formError}
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
                    {u.id !== currentUserId && articleCounts[u.id] ? (
                      <Link to={`?delete=${u.id}`} className="button button-danger button-small" aria-label={`Delete ${u.username}`} preventScrollReset>
                        Delete
                      </Link>
                    ) : u.id !== currentUserId ? (
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

      {deleting ? (
        <DeleteUserDialog
          target={deleting}
          heirs={heirs}
          busy={busy}
          error={actionData?.intent === "delete" || actionData?.intent === "deactivate" ? (failure?.errors?.reassign_to ?? failure?.formError) : undefined}
        />
      ) : null}

      {creating ? (
        <RouteDialog title="Add User" titleId="user-dialog-title" closeTo="/admin/users" returnFocus='a[href$="?new=1"]'>
          <Form method="post" className="form" noValidate>
            <Field label="Username" name="username" error={errors.username} required autoFocus autoComplete="off" defaultValue={values?.username} />
            <Field label="Email" name="email" type="email" error={errors.email} required defaultValue={values?.email} />
            <Field label="Full name" name="full_name" error={errors.full_name} defaultValue={values?.full_name} />
            <RoleSelect error={errors.role} defaultValue={values?.role} />
            <Field label="Password" name="password" type="password" error={errors.password} required autoComplete="new-password" hint="At least 8 characters" />
            {failure?.formError ? (
              <p className="form-error" role="alert">
                {failure.formError}
              </p>
            ) : null}
            <DialogActions intent="create" label="Create user" busy={busy} />
          </Form>
        </RouteDialog>
      ) : null}

      {editing ? (
        <RouteDialog title={`Edit ${editing.username}`} titleId="user-dialog-title" closeTo="/admin/users" returnFocus={`a[href$="?edit=${editing.id}"]`}>
          <Form method="post" className="form" noValidate key={editing.id}>
            <input type="hidden" name="id" value={editing.id} />
            <Field label="Email" name="email" type="email" error={errors.email} required defaultValue={values?.email ?? editing.email} autoFocus />
            <Field label="Full name" name="full_name" error={errors.full_name} defaultValue={values?.full_name ?? editing.full_name ?? ""} />
            <Field as="textarea" label="Bio" name="bio" rows={3} error={errors.bio} defaultValue={values?.bio ?? editing.profile.bio ?? ""} />
            <RoleSelect error={errors.role} defaultValue={values?.role ?? editing.role} />
            <CheckboxField label="Active" name="is_active" error={errors.is_active} defaultChecked={values ? values.is_active === "on" : editing.is_active} />
            <Field
              label="New password"
              name="password"
              type="password"
              error={errors.password}
              autoComplete="new-password"
              hint="Leave empty to keep the current password. A new password signs the user out everywhere."
            />
            {failure?.formError ? (
              <p className="form-error" role="alert">
                {failure.formError}
              </p>
            ) : null}
            <DialogActions intent="update" label="Save changes" busy={busy} />
          </Form>
        </RouteDialog>
      ) : null}
    </section>
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

function RoleSelect({ error, defaultValue = "reporter" }: { error?: string; defaultValue?: string }) {
  return (
    <Field as="select" label="Role" name="role" defaultValue={defaultValue} error={error}>
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {r}
        </option>
      ))}
    </Field>
  );
}

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
