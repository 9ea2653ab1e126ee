import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useMatches, useNavigation, type ShouldRevalidateFunction } from "@remix-run/react";
import { SiteFooter } from "~/components/public/site-footer";
import { SiteHeader } from "~/components/public/site-header";
import { StaffBar } from "~/components/public/staff-bar";
import { getPublicMenus } from "~/models/menu.server";
import { mailConfigured } from "~/services/mail.server";
import { getPublicSite } from "~/services/public-site.server";
import { staffBar } from "~/services/staff-bar.server";
import styles from "~/styles/public.css";

// The public reader site's chrome (SPEC §2 'Header and footer'): a pathless layout, so the admin
// keeps its own shell. Its data (site settings, menu) also feeds every public page's meta.

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  // Feed discovery on every public page (issue 17); a relative address resolves against the page.
  { rel: "alternate", type: "application/rss+xml", title: "Наука UA — RSS", href: "/rss.xml" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  // The menus of /admin/menu (issue 31 item 5), cached in process like the settings.
  const [site, menus, staff] = await Promise.all([getPublicSite(), getPublicMenus(), staffBar(request)]);
  return {
    site,
    menus,
    now: new Date().toISOString(),
    newsletter: mailConfigured(),
    // Issue 31 items 15 and 19: only for a signed-in staff member (never in a stored page).
    staff,
  };
}

// The chrome's data does not depend on the URL: client-side navigations skip reloading it.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod && formMethod !== "GET" ? defaultShouldRevalidate : false;

export default function PublicLayout() {
  const { site, menus, now, newsletter, staff } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const matches = useMatches();
  // The page's own route says where its editor is (the article page), when this reader may edit it.
  const editUrl = staff ? matches.map((m) => (m.data as { editUrl?: string | null } | undefined)?.editUrl).find(Boolean) : null;
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
      {staff ? <StaffBar staff={staff} editUrl={editUrl ?? null} /> : null}
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
