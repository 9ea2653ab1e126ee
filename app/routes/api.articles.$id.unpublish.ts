import type { ActionFunctionArgs } from "@remix-run/node";
import { setArticleStatus } from "~/models/article.server";
import { requireUser } from "~/services/auth.server";
import { apiJson, apiRoute, methodNotAllowed } from "~/utils/http.server";

/** POST /api/articles/{id}/unpublish (editors and admins; DESIGN §5, §11): published or scheduled → draft. */
export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const actor = await requireUser(request);
  return apiJson(await setArticleStatus({ actor, id: params.id ?? "", status: "draft" }));
});

export const loader = () => methodNotAllowed(["POST"]);
