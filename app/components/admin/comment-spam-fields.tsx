import { Field } from "~/components/ui/field";

// Settings → Content, issue 28: the two spam checks an editor tunes (docs/decisions/026-comments.md).
// The honeypot, the minimum fill time and the per-address limit need no setting.

/** The links limit and the word blocklist of comments. */
export function CommentSpamFields({
  content,
  value,
  errors,
}: {
  content: { comment_max_links: number; comment_blocklist: string };
  value: (name: string, saved: string | number) => string;
  errors: Record<string, string | undefined>;
}) {
  return (
    <>
      <Field
        label="Найбільше посилань у коментарі"
        name="comment_max_links"
        type="number"
        min={0}
        max={20}
        defaultValue={value("comment_max_links", content.comment_max_links)}
        error={errors.comment_max_links}
        hint="Коментар, де посилань більше, чекає на модератора."
      />
      <Field
        as="textarea"
        label="Заборонені слова в коментарях"
        name="comment_blocklist"
        rows={4}
        maxLength={5000}
        defaultValue={value("comment_blocklist", content.comment_blocklist)}
        error={errors.comment_blocklist}
        hint="Одне слово або вираз у рядку. Коментар, що містить будь-яке з них, чекає на модератора."
      />
    </>
  );
}
