import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { restoreRevision } from "~/services/article-history.server";
import { requireUser } from "~/services/auth.server";
import { apiError, apiJson, apiRoute, methodNotAllowed, parseJsonBody } from "~/utils/http.server";
import { revisionIdOf } from "~/utils/revision-id";

const RestoreSchema = z.object({ version: z.number({ invalid_type_error: "Версія має бути числом" }).int().positive().optional() }).strict();

/**
 * POST /api/articles/{id}/revisions/{rev}/restore `{version?}` (DESIGN §11): saves the revision's
 * fields as a new version (itself a revision); a `version` older than the article's is a 409.
 */
export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const actor = await requireUser(request);
  const revisionId = revisionIdOf(params.rev);
  if (!revisionId) return apiError(404, "Версію не знайдено");
  // A body is optional: without one the restore does not check the version.
  const body = request.headers.get("content-type") || Number(request.headers.get("content-length") ?? 0) > 0 ? await parseJsonBody(request, RestoreSchema) : {};
  return apiJson(await restoreRevision({ actor, articleId: params.id ?? "", revisionId, version: body.version }));
});

export const loader = () => methodNotAllowed(["POST"]);
