import type { LinksFunction } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { SiteFooter } from "~/components/public/site-footer";
import { SiteHeader } from "~/components/public/site-header";
import { listMenuCategories } from "~/models/category.server";
import styles from "~/styles/public.css";
import { getPublicSite } from "~/utils/public-site.server";

// The public reader site's chrome (SPEC §2 'Header and footer'): a pathless layout, so the admin
// keeps its own shell. Its data (site settings, menu) also feeds every public page's meta.

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader() {
  const [site, categories] = await Promise.all([getPublicSite(), listMenuCategories()]);
  return {
    site,
    categories: categories.map((c) => ({ name: c.name, slug: c.slug })),
    now: new Date().toISOString(),
  };
}

export default function PublicLayout() {
  const { site, categories, now } = useLoaderData<typeof loader>();
  return (
    <div className="public">
      <a className="skip-link" href="#main">
        Перейти до основного вмісту
      </a>
      <SiteHeader siteTitle={site.title} categories={categories} now={now} />
      <main id="main" tabIndex={-1} className="container public-main">
        <Outlet />
      </main>
      <SiteFooter siteTitle={site.title} description={site.description} categories={categories} />
    </div>
  );
}
