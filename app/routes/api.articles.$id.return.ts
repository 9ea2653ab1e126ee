import type { ActionFunctionArgs } from "@remix-run/node";
import { returnArticle, ReturnBodySchema } from "~/models/article-desk.server";
import { requireUser } from "~/services/auth.server";
import { apiJson, apiRoute, methodNotAllowed, parseOptionalJsonBody } from "~/utils/http.server";

/** POST /api/articles/{id}/return `{note}` (DESIGN §11): editors and admins: review → draft, with the note the author reads in the editor. */
export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const actor = await requireUser(request);
  const body = await parseOptionalJsonBody(request, ReturnBodySchema);
  return apiJson(await returnArticle({ actor, id: params.id ?? "", note: body.note }));
});

export const loader = () => methodNotAllowed(["POST"]);
