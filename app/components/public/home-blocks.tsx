import { Link } from "@remix-run/react";
import type { Card, HomepageBlocks } from "~/models/public-article.server";
import { responsiveImage } from "~/utils/media-url";
import { formatViews } from "~/utils/public-format";
import { CardImage, CardLink, CategoryBadge, FeedItem, ListCard, Meta, TileCard } from "./cards";

/** Sidebar 'News Feed' (SPEC §2), also beside category and search listings. */
export function NewsFeed({ cards }: { cards: Card[] }) {
  return (
    <section className="news-feed" aria-labelledby="news-feed-title">
      <h2 id="news-feed-title" className="section-title">
        News Feed
      </h2>
      {cards.length ? (
        <ul>
          {cards.map((c) => (
            <FeedItem key={c.id} card={c} />
          ))}
        </ul>
      ) : (
        <p className="muted">News is loading...</p>
      )}
    </section>
  );
}

function Hero({ card, related }: { card: Card; related: Card[] }) {
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="hero-main">
        <div className="hero-image">
          <CardImage card={card} sizes="(max-width: 900px) 100vw, 760px" eager />
        </div>
        <div className="hero-body">
          <p className="hero-badges">
            <span className="badge badge-hot">Головне</span> <CategoryBadge card={card} />
          </p>
          <h2 id="hero-title" className="hero-title">
            <CardLink card={card} />
          </h2>
          {card.subtitle ? <p className="hero-subtitle">{card.subtitle}</p> : null}
          <Meta card={card} />
        </div>
      </div>
      {related.length ? (
        <ul className="hero-related" aria-label="Пов'язані новини">
          {related.map((r) => (
            <li key={r.id}>
              <CardImage card={r} sizes="120px" />
              <div>
                <span className="related-category">{r.category || "News"}</span>
                <CardLink card={r} />
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** The home page body (also the home-style 404 fallback): hero, main list, trending, featured, feed. */
export function HomeBlocks({ blocks, related }: { blocks: HomepageBlocks; related: Card[] }) {
  const hero = blocks.hero[0];
  return (
    <>
      {hero ? <Hero card={hero} related={related} /> : null}
      <div className="with-sidebar">
        <div className="main-column">
          <section aria-labelledby="latest-title">
            <h2 id="latest-title" className="section-title">
              Latest scientific discoveries
            </h2>
            {blocks.main.length ? (
              <div className="list-cards">
                {blocks.main.map((c) => (
                  <ListCard key={c.id} card={c} />
                ))}
              </div>
            ) : (
              <p className="muted">News is loading...</p>
            )}
            <p className="all-news">
              <Link to="/search" className="button button-primary">
                ALL SCIENCE NEWS
              </Link>
            </p>
          </section>
          {blocks.trending.length ? (
            <section aria-labelledby="trending-title">
              <h2 id="trending-title" className="section-title">
                Популярне
              </h2>
              <ol className="trending">
                {blocks.trending.map((c, i) => (
                  <li key={c.id}>
                    <span className="trending-rank" aria-hidden="true">
                      {i + 1}
                    </span>
                    <div>
                      <CategoryBadge card={c} />
                      <h3 className="trending-title">
                        <CardLink card={c} />
                      </h3>
                      <p className="card-meta">{formatViews(c.views)} переглядів</p>
                    </div>
                  </li>
                ))}
              </ol>
            </section>
          ) : null}
          <section aria-labelledby="featured-title">
            <h2 id="featured-title" className="section-title">
              Вибрані публікації
            </h2>
            <div className="video-block">
              <img
                {...responsiveImage("/images/demo/space-2.jpg", "(max-width: 900px) 100vw, 400px")}
                alt=""
                loading="lazy"
                decoding="async"
                width={800}
                height={450}
              />
              <span className="video-play" aria-hidden="true">
                ▶
              </span>
              <p>
                <span className="badge">Відео</span> Як працює наука: репортажі з лабораторій України
              </p>
            </div>
            <div className="tiles">
              {blocks.featured.map((c) => (
                <TileCard key={c.id} card={c} />
              ))}
            </div>
          </section>
        </div>
        <aside className="sidebar">
          <NewsFeed cards={blocks.sidebar} />
        </aside>
      </div>
    </>
  );
}
