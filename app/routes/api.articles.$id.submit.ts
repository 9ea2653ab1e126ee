import type { ActionFunctionArgs } from "@remix-run/node";
import { submitArticle, SubmitBodySchema } from "~/models/article-desk.server";
import { requireUser } from "~/services/auth.server";
import { apiJson, apiRoute, methodNotAllowed, parseOptionalJsonBody } from "~/utils/http.server";

/** POST /api/articles/{id}/submit `{note}` (DESIGN §11): its author (any role): draft → review, with an optional note. */
export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const actor = await requireUser(request);
  const body = await parseOptionalJsonBody(request, SubmitBodySchema);
  return apiJson(await submitArticle({ actor, id: params.id ?? "", note: body.note }));
});

export const loader = () => methodNotAllowed(["POST"]);
