import { Form, Link } from "@remix-run/react";
import { Field } from "~/components/ui/field";
import { RouteDialog } from "~/components/ui/route-dialog";

// Issue 31 item 4: deleting someone who wrote articles (admin.users.tsx, `?delete={id}`). The
// dialog says how many articles they have and asks who takes them over (required), or offers to
// deactivate the account instead. Plain forms: the same without JavaScript.

export interface DeleteTarget {
  id: string;
  username: string;
  name: string;
  articles: number;
}

const articlesWord = (n: number) => {
  const last = n % 10;
  const lastTwo = n % 100;
  if (last === 1 && lastTwo !== 11) return "статтю";
  if (last >= 2 && last <= 4 && (lastTwo < 12 || lastTwo > 14)) return "статті";
  return "статей";
};

export function DeleteUserDialog({
  target,
  heirs,
  error,
  busy,
}: {
  target: DeleteTarget;
  /** Active users other than the one deleted: who may take the articles over. */
  heirs: { id: string; username: string; name: string }[];
  error?: string;
  busy: boolean;
}) {
  return (
    <RouteDialog title={`Видалити ${target.username}?`} titleId="delete-user-title" closeTo="/admin/users" returnFocus={`a[href$="?delete=${target.id}"]`}>
      <p>
        <strong>{target.name}</strong> має {target.articles} {articlesWord(target.articles)}. Перш ніж видалити обліковий запис, оберіть, кому їх передати:
        статті не залишаться без автора.
      </p>
      <Form method="post" className="form">
        <input type="hidden" name="id" value={target.id} />
        <Field as="select" label="Передати статті користувачеві" name="reassign_to" required defaultValue="" error={error}>
          <option value="" disabled>
            — оберіть —
          </option>
          {heirs.map((h) => (
            <option key={h.id} value={h.id}>
              {h.name} (@{h.username})
            </option>
          ))}
        </Field>
        <div className="dialog-actions">
          <Link to="/admin/users" className="button button-secondary">
            Скасувати
          </Link>
          <button type="submit" name="intent" value="deactivate" className="button button-secondary" formNoValidate disabled={busy}>
            Деактивувати замість видалення
          </button>
          <button type="submit" name="intent" value="delete" className="button button-danger" disabled={busy}>
            Передати статті й видалити
          </button>
        </div>
      </Form>
    </RouteDialog>
  );
}
