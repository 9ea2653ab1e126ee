import { Link } from "@remix-run/react";
import { Fragment } from "react";
import type { Byline } from "~/utils/bylines";

/** Every author of an article, each linked to their page (issue 29); the plain name when there are none. */
export function BylineNames({ authors, fallback }: { authors?: Byline[]; fallback: string }) {
  if (!authors?.length) return <span>{fallback}</span>;
  return (
    <span className="byline">
      {authors.map((a, i) => (
        <Fragment key={`${a.kind}:${a.slug}`}>
          {i > 0 ? (i === authors.length - 1 ? " і " : ", ") : null}
          <Link to={a.url} rel="author">
            {a.name}
          </Link>
        </Fragment>
      ))}
    </span>
  );
}
