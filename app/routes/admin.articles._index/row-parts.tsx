import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

// The article list's row parts: an action that asks first, and the article's address with copy.

export const QUESTIONS = {
  publish: (t: string) => `Опублікувати статтю «${t}»?`,
  unpublish: (t: string) => `Зняти з публікації статтю «${t}»?`,
  delete: (t: string) => `Видалити статтю «${t}»? Цю дію не можна скасувати.`,
} as const;
export type Intent = keyof typeof QUESTIONS;

/** A row action that asks first: a browser dialog with JavaScript, a confirmation step without. */
export function RowAction({
  intent,
  id,
  title,
  back,
  label,
  danger,
}: {
  intent: Intent;
  id: string;
  title: string;
  back: string;
  label: string;
  danger?: boolean;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("id") === id && navigation.formData?.get("intent") === intent;
  return (
    <Form
      method="post"
      onSubmit={(event) => {
        if (!window.confirm(QUESTIONS[intent](title))) event.preventDefault();
      }}
    >
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="back" value={back} />
      <input type="hidden" name="confirmed" value={hydrated ? "1" : ""} />
      <button
        type="submit"
        name="intent"
        value={intent}
        className={danger ? "button button-danger button-small" : "button button-secondary button-small"}
        aria-label={`${label} ${title}`}
        disabled={busy}
      >
        {busy ? "…" : label}
      </button>
    </Form>
  );
}

export function ArticleUrl({ slug, title }: { slug: string; title: string }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  const path = `/article/${slug}`;
  return (
    <div className="url-cell">
      <code>{path}</code>
      {hydrated ? (
        <button
          type="button"
          className="icon-button"
          aria-label={`Копіювати URL ${title}`}
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(new URL(path, window.location.origin).href);
              setCopied(true);
              setTimeout(() => setCopied(false), 2000);
            } catch {
              setCopied(false);
            }
          }}
        >
          {copied ? "✓" : "Copy"}
        </button>
      ) : null}
      <a href={path} target="_blank" rel="noopener noreferrer" className="icon-button" aria-label={`Відкрити ${title} у новій вкладці`}>
        ↗
      </a>
      {copied ? (
        <span className="visually-hidden" role="status">
          Скопійовано
        </span>
      ) : null}
    </div>
  );
}
