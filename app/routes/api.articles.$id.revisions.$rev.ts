import type { LoaderFunctionArgs } from "@remix-run/node";
import { articleRevision } from "~/services/article-history.server";
import { requireUser } from "~/services/auth.server";
import { apiError, apiJson, apiRoute, methodNotAllowed } from "~/utils/http.server";
import { revisionIdOf } from "~/utils/revision-id";

/** GET /api/articles/{id}/revisions/{rev} (DESIGN §11): the revision's saved fields. */
export const loader = apiRoute(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  const revisionId = revisionIdOf(params.rev);
  if (!revisionId) return apiError(404, "Версію не знайдено");
  return apiJson(await articleRevision({ actor, articleId: params.id ?? "", revisionId }));
});

export const action = () => methodNotAllowed(["GET"]);
