import type { ActionFunctionArgs } from "@remix-run/node";
import { publishArticle, PublishBodySchema } from "~/models/article-desk.server";
import { requireUser } from "~/services/auth.server";
import { apiJson, apiRoute, methodNotAllowed, parseOptionalJsonBody } from "~/utils/http.server";

/**
 * POST /api/articles/{id}/publish `{publish_at?}` (editors and admins; DESIGN §5, §11): now, or
 * `scheduled` when `publish_at` (ISO 8601 with an offset) is in the future. The body may be left out.
 */
export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const actor = await requireUser(request);
  const body = await parseOptionalJsonBody(request, PublishBodySchema);
  return apiJson(await publishArticle({ actor, id: params.id ?? "", publishAt: body.publish_at }));
});

export const loader = () => methodNotAllowed(["POST"]);
