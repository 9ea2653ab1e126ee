import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { HomePage } from "~/components/public/home-page";
import { showsArticles } from "~/page-store/page-cache.server";
import { homeCards, loadHome } from "~/services/public-home.server";
import { getVerificationMeta } from "~/services/public-site.server";
import { buildMeta, siteFromMatches } from "~/utils/seo-meta";
import type { loader as layoutLoader } from "./_public";

// SPEC §2 'Home page': the saved homepage layout, rendered on the server.
export async function loader({ context }: LoaderFunctionArgs) {
  const [home, verification] = await Promise.all([loadHome(), getVerificationMeta()]);
  showsArticles(context, homeCards(home));
  return { home, verification };
}

export default function Home() {
  const { home } = useLoaderData<typeof loader>();
  const layout = useRouteLoaderData<typeof layoutLoader>("routes/_public");
  if (!layout) return null;
  return <HomePage site={layout.site} home={home} />;
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  ...buildMeta(siteFromMatches(matches), { path: "/" }),
  ...(data?.verification ?? []).map((v) => ({ name: v.name, content: v.content })),
];
