import { Form, Link } from "@remix-run/react";
import { useEffect, useState } from "react";

/** A status line that disappears after 3 s (SPEC §9 timers); green for success, red otherwise. */
export function TimedMessage({ message, tone, ms = 3000 }: { message: string | null | undefined; tone: "ok" | "error"; ms?: number }) {
  const [shown, setShown] = useState(message);
  useEffect(() => {
    setShown(message);
    if (!message) return;
    const timer = setTimeout(() => setShown(null), ms);
    return () => clearTimeout(timer);
  }, [message, ms]);
  if (!shown) return null;
  return (
    <p className={tone === "ok" ? "flash flash-ok" : "flash flash-error"} role={tone === "ok" ? "status" : "alert"}>
      {shown}
    </p>
  );
}

/**
 * The confirmation step for readers without JavaScript (SPEC §8 'Confirmations'): the action
 * answers an unconfirmed post with this dialog, whose form repeats the post with confirmed=1.
 */
export function ConfirmStep({
  question,
  fields,
  confirmLabel,
  cancelTo,
  danger,
}: {
  question: string;
  fields: Record<string, string>;
  confirmLabel: string;
  cancelTo: string;
  danger?: boolean;
}) {
  return (
    <div className="dialog-backdrop">
      <div className="dialog" role="alertdialog" aria-modal="true" aria-labelledby="confirm-title">
        <h3 id="confirm-title">{question}</h3>
        <Form method="post" className="dialog-actions">
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <input type="hidden" name="confirmed" value="1" />
          <Link to={cancelTo} className="button button-secondary">
            Скасувати
          </Link>
          <button type="submit" className={danger ? "button button-danger" : "button button-primary"} autoFocus>
            {confirmLabel}
          </button>
        </Form>
      </div>
    </div>
  );
}
