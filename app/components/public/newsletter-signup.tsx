import { Form } from "@remix-run/react";

// The subscribe form of every public page's footer and of /newsletter (issue 28 item 3): a plain
// form posting to /newsletter, so it works without JavaScript and carries nothing per reader (the
// page store keeps it as it is).

export function NewsletterSignup({ id = "footer-newsletter", heading = true }: { id?: string; heading?: boolean }) {
  return (
    <section aria-labelledby={heading ? `${id}-title` : undefined} aria-label={heading ? undefined : "Підписка на розсилку"} className="newsletter-signup">
      {heading ? (
        <h2 id={`${id}-title`} className="footer-title">
          Розсилка
        </h2>
      ) : null}
      <p>Головне за тиждень і важливі новини науки — на вашу пошту. Відписатися можна одним кліком.</p>
      <Form method="post" action="/newsletter" className="newsletter-form">
        <label htmlFor={`${id}-email`}>Ваш email</label>
        <input id={`${id}-email`} type="email" name="email" autoComplete="email" required maxLength={254} placeholder="name@example.com" />
        <button type="submit" className="button button-primary">
          Підписатися
        </button>
      </Form>
    </section>
  );
}
