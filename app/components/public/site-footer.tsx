import { Link } from "@remix-run/react";
import { NewsletterSignup } from "./newsletter-signup";
import type { MenuLink } from "./site-header";

// SPEC §2's quick links and social links, from /admin/menu (issue 31 item 5, DESIGN §17): a link to
// an unpublished page is not shown, a social network without an address has no link, and nothing
// ever points to `#`. The "Рубрики" column lists the header menu's categories.

const FooterLink = ({ link }: { link: MenuLink }) =>
  link.external ? (
    <a href={link.href} rel="noopener">
      {link.label}
    </a>
  ) : (
    <Link to={link.href}>{link.label}</Link>
  );

export function SiteFooter({
  siteTitle,
  description,
  categories,
  newsletter = false,
  quickLinks,
  social,
}: {
  siteTitle: string;
  description: string;
  categories: MenuLink[];
  /** Issue 28: the subscribe form, when mail is set up. */
  newsletter?: boolean;
  quickLinks: MenuLink[];
  social: { name: string; href: string }[];
}) {
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <section aria-labelledby="footer-about">
          <h2 id="footer-about" className="footer-title">
            {siteTitle}
          </h2>
          <p>{description}</p>
          {social.length ? (
            <nav aria-label="Соціальні мережі">
              <ul className="social-links">
                {social.map((s) => (
                  <li key={s.name}>
                    <a href={s.href} rel="noopener me">
                      {s.name}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
        </section>
        {quickLinks.length ? (
          <nav aria-labelledby="footer-quick">
            <h2 id="footer-quick" className="footer-title">
              Швидкі посилання
            </h2>
            <ul>
              {quickLinks.map((l, i) => (
                <li key={`${i}:${l.href}`}>
                  <FooterLink link={l} />
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
            {categories.map((c, i) => (
              <li key={`${i}:${c.href}`}>
                <FooterLink link={c} />
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
