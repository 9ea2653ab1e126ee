import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { homeToJson, loadHome } from "~/services/public-home.server";
import { apiJson, apiRoute, methodNotAllowed } from "~/utils/http.server";

/** GET /api/homepage/public → { blocks: [{ id, articles: [card] }] }: the public home's data (SPEC §7). */
export const loader = apiRoute(async (_args: LoaderFunctionArgs) => apiJson(homeToJson(await loadHome())));

export const action = apiRoute(async (_args: ActionFunctionArgs) => methodNotAllowed(["GET"]));
