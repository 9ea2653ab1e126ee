import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

/** Reloads the route's data every `ms` while the tab is visible (dashboard 30 s, analytics 60 s). */
export function useRevalidateEvery(ms: number) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && state === "idle") revalidate();
    }, ms);
    return () => clearInterval(timer);
  }, [ms, revalidate, state]);
}
