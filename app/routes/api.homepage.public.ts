import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { showsArticles } from "~/page-store/page-cache.server";
import { homeToJson, loadHome } from "~/services/public-home.server";
import { apiJson, apiRoute, methodNotAllowed } from "~/utils/http.server";

/** GET /api/homepage/public → { blocks: [{ id, articles: [card] }] }: the public home's data (SPEC §7). */
export const loader = apiRoute(async ({ context }: LoaderFunctionArgs) => {
  const home = homeToJson(await loadHome());
  // The blocks' cards (not the hero's related tiles: the JSON does not carry them).
  showsArticles(context, home.sample ? [] : home.blocks.flatMap((block) => block.articles));
  return apiJson(home);
});

export const action = apiRoute(async (_args: ActionFunctionArgs) => methodNotAllowed(["GET"]));
