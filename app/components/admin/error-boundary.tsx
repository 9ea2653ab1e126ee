import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { AccessDenied } from "./placeholder";

/** Errors of an admin screen, shown inside the shell: 403 'Access Denied', 404, anything else. */
export function AdminErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 403) return <AccessDenied />;
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // 503: the database was busy (server.ts maps SQLITE_BUSY); nothing was saved, the text says so.
  const busy = isRouteErrorResponse(error) && error.status === 503 && typeof error.data === "string" ? error.data : undefined;
  return (
    <section className="admin-card" role="alert">
      <h2>{notFound ? "Не знайдено" : busy ? "Сервер тимчасово зайнятий" : "Error"}</h2>
      <p>{notFound ? "Такого запису немає або його видалено." : (busy ?? "Помилка сервера. Спробуйте ще раз.")}</p>
    </section>
  );
}
