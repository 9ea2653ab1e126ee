import { Link, useNavigate } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled])';

/**
 * A modal panel driven by the URL (?new=1, ?edit=id), so it opens and closes the same without
 * JavaScript. With JavaScript, Escape closes it, Tab stays inside it, and focus goes back to the
 * control that opened it (`returnFocus`, a selector) when it closes.
 */
export function RouteDialog({
  title,
  titleId,
  closeTo,
  returnFocus,
  children,
}: {
  title: string;
  titleId: string;
  closeTo: string;
  returnFocus?: string;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        navigate(closeTo, { preventScrollReset: true });
        return;
      }
      if (event.key !== "Tab" || !panel.current) return;
      const items = Array.from(panel.current.querySelectorAll<HTMLElement>(FOCUSABLE));
      if (items.length === 0) return;
      const first = items[0];
      const last = items[items.length - 1];
      const active = document.activeElement;
      if (event.shiftKey && (active === first || !panel.current.contains(active))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !panel.current.contains(active))) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      if (returnFocus) requestAnimationFrame(() => document.querySelector<HTMLElement>(returnFocus)?.focus());
    };
  }, [closeTo, navigate, returnFocus]);

  return (
    <div className="dialog-backdrop">
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={panel}>
        <div className="toolbar">
          <h3 id={titleId}>{title}</h3>
          <Link to={closeTo} className="dialog-close" aria-label="Close" preventScrollReset>
            ×
          </Link>
        </div>
        {children}
      </div>
    </div>
  );
}
