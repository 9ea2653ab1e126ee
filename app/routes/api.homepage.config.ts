import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getPublishedLayout, HomepageConfigSchema, saveHomepageLayout, toHomepageConfig } from "~/models/homepage.server";
import { requireRole } from "~/services/auth.server";
import { apiJson, apiRoute, methodNotAllowed, parseJsonBody } from "~/utils/http.server";

const EDITORS = ["admin", "editor"] as const;

/** GET /api/homepage/config → { blocks: [{ id, name, articles, maxArticles }] } (admin, editor). */
export const loader = apiRoute(async ({ request }: LoaderFunctionArgs) => {
  await requireRole(request, EDITORS);
  return apiJson(toHomepageConfig(await getPublishedLayout()));
});

/**
 * PUT /api/homepage/config with { blocks: [{ id, articles }] }: replaces the whole layout (blocks
 * left out become empty); 422 for a broken block rule or an unknown/unpublished article id.
 */
export const action = apiRoute(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== "PUT") return methodNotAllowed(["GET", "PUT"]);
  const actor = await requireRole(request, EDITORS);
  const { blocks } = await parseJsonBody(request, HomepageConfigSchema);
  return apiJson(toHomepageConfig(await saveHomepageLayout(blocks, actor)));
});
