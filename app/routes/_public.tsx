import type { LinksFunction } from "@remix-run/node";
import { Outlet, useLoaderData, useNavigation, type ShouldRevalidateFunction } from "@remix-run/react";
import { SiteFooter } from "~/components/public/site-footer";
import { SiteHeader } from "~/components/public/site-header";
import { getPublicMenus } from "~/models/menu.server";
import { mailConfigured } from "~/services/mail.server";
import { getPublicSite } from "~/services/public-site.server";
import styles from "~/styles/public.css";

// The public reader site's chrome (SPEC §2 'Header and footer'): a pathless layout, so the admin
// keeps its own shell. Its data (site settings, menu) also feeds every public page's meta.

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  // Feed discovery on every public page (issue 17); a relative address resolves against the page.
  { rel: "alternate", type: "application/rss+xml", title: "Наука UA — RSS", href: "/rss.xml" },
];

export async function loader() {
  // The menus of /admin/menu (issue 31 item 5), cached in process like the settings.
  const [site, menus] = await Promise.all([getPublicSite(), getPublicMenus()]);
  return {
    site,
    menus,
    now: new Date().toISOString(),
    newsletter: mailConfigured(),
  };
}

// The chrome's data does not depend on the URL: client-side navigations skip reloading it.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod && formMethod !== "GET" ? defaultShouldRevalidate : false;

export default function PublicLayout() {
  const { site, menus, now, newsletter } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  // Pages arrive rendered; with JavaScript, a client-side navigation shows SPEC §2's loading line.
  const loading = navigation.state === "loading";
  return (
    <div className="public">
      {loading ? (
        <div className="route-loading" role="status">
          <span className="spinner" aria-hidden="true" />
          {navigation.location.pathname === "/" ? "loading latest science news" : "Завантаження..."}
        </div>
      ) : null}
      <a className="skip-link" href="#main">
        Перейти до основного вмісту
      </a>
      <SiteHeader siteTitle={site.title} menu={menus.header} now={now} />
      <main id="main" tabIndex={-1} className="container public-main">
        <Outlet />
      </main>
      <SiteFooter
        siteTitle={site.title}
        description={site.description}
        categories={menus.categories}
        quickLinks={menus.footer}
        social={menus.social}
        newsletter={newsletter}
      />
    </div>
  );
}
