import { useBlocker } from "@remix-run/react";
import { useEffect } from "react";

export const UNSAVED_CHANGES_QUESTION = "Є незбережені зміни. Залишити сторінку без збереження?";

/**
 * Asks before the page is left while `when` holds: the browser's own prompt on reload, close or an
 * outside link (beforeunload), a confirm() on an in-app link to another path (Remix's useBlocker).
 */
export function useUnsavedChangesWarning(when: boolean, question = UNSAVED_CHANGES_QUESTION) {
  useEffect(() => {
    if (!when) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [when]);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm(question)) blocker.proceed();
    else blocker.reset();
  }, [blocker, question]);
}
