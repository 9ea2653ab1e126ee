import type { LoaderFunctionArgs } from "@remix-run/node";
import { articleRevisions } from "~/services/article-history.server";
import { requireUser } from "~/services/auth.server";
import { apiJson, apiRoute, listParams, methodNotAllowed } from "~/utils/http.server";

/** GET /api/articles/{id}/revisions?skip&limit (DESIGN §11): newest first, for who may edit it. */
export const loader = apiRoute(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  const { skip, limit } = listParams(request, 20);
  return apiJson(await articleRevisions({ actor, articleId: params.id ?? "", skip, limit }));
});

export const action = () => methodNotAllowed(["GET"]);
