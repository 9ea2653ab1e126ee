import { Link } from "@remix-run/react";
import { NewsletterSignup } from "./newsletter-signup";
import type { MenuCategory } from "./site-header";

// SPEC §2's quick links are the static pages (issue 31 item 5, DESIGN §17): the footer links to the
// published ones only, and never to `#`. (The placeholder social links are gone until the social
// URLs have a setting.)

export function SiteFooter({
  siteTitle,
  description,
  categories,
  newsletter = false,
  pages,
}: {
  siteTitle: string;
  description: string;
  categories: MenuCategory[];
  /** Issue 28: the subscribe form, when mail is set up. */
  newsletter?: boolean;
  pages: { title: string; slug: string }[];
}) {
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <section aria-labelledby="footer-about">
          <h2 id="footer-about" className="footer-title">
            {siteTitle}
          </h2>
          <p>{description}</p>
        </section>
        {pages.length ? (
          <nav aria-labelledby="footer-quick">
            <h2 id="footer-quick" className="footer-title">
              Швидкі посилання
            </h2>
            <ul>
              {pages.map((p) => (
                <li key={p.slug}>
                  <Link to={`/page/${p.slug}`}>{p.title}</Link>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <nav aria-labelledby="footer-cats">
          <h2 id="footer-cats" className="footer-title">
            Рубрики
          </h2>
          <ul>
            {categories.map((c) => (
              <li key={c.slug}>
                <Link to={`/category/${c.slug}`}>{c.name}</Link>
              </li>
            ))}
            <li>
              <a href="/rss.xml">RSS</a>
            </li>
          </ul>
        </nav>
        {newsletter ? <NewsletterSignup /> : null}
      </div>
      <div className="container footer-bottom">
        <p>
          © {new Date().getFullYear()} {siteTitle}
        </p>
      </div>
    </footer>
  );
}
