import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";

/** A public route's error inside the public layout: 404 as 'not found', anything else as 'Error'. */
export function PublicError({
  notFoundTitle = "Сторінку не знайдено",
  errorText = "Щось пішло не так. Спробуйте оновити сторінку.",
}: {
  notFoundTitle?: string;
  errorText?: string;
}) {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <section className="page-error">
      <h1>{notFound ? notFoundTitle : "Error"}</h1>
      <p>{notFound ? "Такої сторінки немає. Можливо, її видалили або адресу введено з помилкою." : errorText}</p>
      <p>
        <Link to="/" className="button button-primary">
          На головну
        </Link>
      </p>
    </section>
  );
}
