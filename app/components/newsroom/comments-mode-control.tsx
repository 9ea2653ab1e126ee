import { Form, useNavigation } from "@remix-run/react";

// The editor's per-article comments switch (issue 28, DESIGN §15): open, closed (kept, no new
// ones) or hidden. Its own small form beside the editor's (forms do not nest), posted to
// /admin/comments (intent "mode"); works without JavaScript. Editors and admins only (the route checks).

const MODES = [
  { value: "open", label: "Відкриті" },
  { value: "closed", label: "Закриті (видно, нових не приймаємо)" },
  { value: "hidden", label: "Приховані" },
] as const;

export function CommentsModeControl({ articleId, mode }: { articleId: string; mode: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "mode";
  return (
    <Form method="post" action="/admin/comments" className="comments-mode-control">
      <input type="hidden" name="intent" value="mode" />
      <input type="hidden" name="article_id" value={articleId} />
      <label htmlFor="comments_mode">Коментарі до статті</label>{" "}
      <select id="comments_mode" name="comments_mode" defaultValue={mode} key={mode}>
        {MODES.map((m) => (
          <option key={m.value} value={m.value}>
            {m.label}
          </option>
        ))}
      </select>{" "}
      <button type="submit" className="button button-secondary button-small" disabled={busy}>
        Зберегти режим
      </button>{" "}
      <a href={`/admin/comments?article_id=${articleId}&status=approved`} className="small">
        Модерація
      </a>
    </Form>
  );
}
