import { Link } from "@remix-run/react";
import { NewsletterSignup } from "./newsletter-signup";
import type { MenuCategory } from "./site-header";

// SPEC §2: quick links and social links are placeholder targets.
const QUICK_LINKS = ["About Us", "Contact", "Research Guidelines", "Privacy Policy", "Terms of Use", "Editorial Standards"];
const SOCIAL = ["Facebook", "Twitter", "Instagram"];

export function SiteFooter({
  siteTitle,
  description,
  categories,
  newsletter = false,
}: {
  siteTitle: string;
  description: string;
  categories: MenuCategory[];
  /** Issue 28: the subscribe form, when mail is set up. */
  newsletter?: boolean;
}) {
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <section aria-labelledby="footer-about">
          <h2 id="footer-about" className="footer-title">
            {siteTitle}
          </h2>
          <p>{description}</p>
          <ul className="social-links" aria-label="Соціальні мережі">
            {SOCIAL.map((name) => (
              <li key={name}>
                <a href="#" rel="nofollow">
                  {name}
                </a>
              </li>
            ))}
          </ul>
        </section>
        <nav aria-labelledby="footer-quick">
          <h2 id="footer-quick" className="footer-title">
            Швидкі посилання
          </h2>
          <ul>
            {QUICK_LINKS.map((label) => (
              <li key={label}>
                <a href="#" rel="nofollow">
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
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
