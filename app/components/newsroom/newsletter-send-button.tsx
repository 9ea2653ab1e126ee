import { Form, useLocation } from "@remix-run/react";

// "Надіслати розсилку зараз" (issue 28 item 3): a breaking story to every confirmed subscriber.
// Shown to editors and admins on a published article; posts to /admin/newsletter, which queues
// the issue and comes back here with the answer as the editor's flash message. Works without JavaScript.

export function NewsletterSendButton({ articleId, published, canSend }: { articleId: string; published: boolean; canSend: boolean }) {
  const location = useLocation();
  if (!canSend || !published) return null;
  return (
    <Form
      method="post"
      action="/admin/newsletter"
      className="newsletter-send"
      onSubmit={(event) => {
        if (!window.confirm("Надіслати цю статтю всім підтвердженим підписникам зараз?")) event.preventDefault();
      }}
    >
      <input type="hidden" name="article_id" value={articleId} />
      <input type="hidden" name="back" value={location.pathname} />
      <button type="submit" name="intent" value="send-article" className="button button-secondary button-small">
        Надіслати розсилку зараз
      </button>
    </Form>
  );
}
