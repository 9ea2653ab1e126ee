import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import type { Card } from "~/models/public-article.server";
import { responsiveImage } from "~/utils/media-url";
import { formatViews } from "~/utils/public-format";
import { BylineNames } from "./byline-names";
import { CommentCount } from "./comment-count";

/** The card's title, linked to its article unless it is a built-in sample. */
export function CardLink({ card, children }: { card: Card; children?: ReactNode }) {
  const content = children ?? card.title;
  return card.url ? (
    <Link to={card.url} prefetch="intent">
      {content}
    </Link>
  ) : (
    <>{content}</>
  );
}

export function CardImage({ card, sizes, eager = false }: { card: Card; sizes: string; eager?: boolean }) {
  const img = responsiveImage(card.image, sizes);
  // The card's title sits right beside the picture, so the image itself is decorative.
  return <img {...img} alt="" loading={eager ? "eager" : "lazy"} decoding="async" {...(eager ? { fetchpriority: "high" } : {})} width={800} height={450} />;
}

export function Meta({ card }: { card: Card }) {
  return (
    <p className="card-meta">
      <time dateTime={card.published_at ?? undefined}>{card.time}</time>
      <span aria-hidden="true"> · </span>
      <span>{formatViews(card.views)} переглядів</span>
      <CommentCount count={card.comment_count} />
      {card.authors?.length || card.author ? (
        <>
          <span aria-hidden="true"> · </span>
          <BylineNames authors={card.authors} fallback={card.author} />
        </>
      ) : null}
    </p>
  );
}

export function CategoryBadge({ card, fallback = "News" }: { card: Card; fallback?: string }) {
  const name = card.category || fallback;
  return card.category_slug ? (
    <Link to={`/category/${card.category_slug}`} className="badge">
      {name}
    </Link>
  ) : (
    <span className="badge">{name}</span>
  );
}

/** A row of the main list: image, category ('Science' by default), title, subtitle, meta. */
export function ListCard({ card, headingLevel = 3, categoryFallback = "Science" }: { card: Card; headingLevel?: 2 | 3; categoryFallback?: string }) {
  const H = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="list-card">
      <div className="list-card-image">
        <CardImage card={card} sizes="(max-width: 700px) 100vw, 280px" />
      </div>
      <div className="list-card-body">
        <CategoryBadge card={card} fallback={categoryFallback} />
        <H className="list-card-title">
          <CardLink card={card} />
        </H>
        {card.subtitle ? <p className="list-card-subtitle">{card.subtitle}</p> : null}
        <Meta card={card} />
      </div>
    </article>
  );
}

/** A picture tile with the title under it (trending, featured, related). */
export function TileCard({ card }: { card: Card }) {
  return (
    <article className="tile-card">
      <CardImage card={card} sizes="(max-width: 700px) 100vw, 300px" />
      <div className="tile-card-body">
        <CategoryBadge card={card} />
        <h3 className="tile-card-title">
          <CardLink card={card} />
        </h3>
        <p className="card-meta">
          <time dateTime={card.published_at ?? undefined}>{card.time}</time>
          <span aria-hidden="true"> · </span>
          {formatViews(card.views)} переглядів
          <CommentCount count={card.comment_count} />
        </p>
      </div>
    </article>
  );
}

/** A compact line of the sidebar 'News Feed'. */
export function FeedItem({ card }: { card: Card }) {
  return (
    <li className="feed-item">
      <time dateTime={card.published_at ?? undefined}>{card.time}</time>
      <span className="feed-category">{card.category || "News"}</span>
      <CardLink card={card} />
    </li>
  );
}
