import { Link } from "@remix-run/react";

/** Real page links (work without JavaScript): previous, numbered pages, next. */
export function Pagination({ page, pages, href }: { page: number; pages: number; href: (page: number) => string }) {
  if (pages <= 1) return null;
  const numbers = Array.from({ length: pages }, (_, i) => i + 1).filter((n) => n === 1 || n === pages || Math.abs(n - page) <= 2);
  return (
    <nav className="pagination" aria-label="Сторінки">
      <ul>
        {page > 1 ? (
          <li>
            <Link to={href(page - 1)} rel="prev">
              ← Попередня
            </Link>
          </li>
        ) : null}
        {numbers.map((n, i) => (
          <li key={n}>
            {i > 0 && n - numbers[i - 1] > 1 ? (
              <span className="gap" aria-hidden="true">
                …
              </span>
            ) : null}
            {n === page ? (
              <span aria-current="page" className="current">
                {n}
              </span>
            ) : (
              <Link to={href(n)} aria-label={`Сторінка ${n}`}>
                {n}
              </Link>
            )}
          </li>
        ))}
        {page < pages ? (
          <li>
            <Link to={href(page + 1)} rel="next">
              Наступна →
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
