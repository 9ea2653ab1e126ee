import type { LoaderFunctionArgs } from "@remix-run/node";
import { articleRevision, compareRevision } from "~/services/article-history.server";
import { requireUser } from "~/services/auth.server";
import { apiError, apiJson, apiRoute, methodNotAllowed } from "~/utils/http.server";
import { revisionIdOf } from "~/utils/revision-id";

/**
 * GET /api/articles/{id}/revisions/{rev} (DESIGN §11): the revision's saved fields. With
 * `?compare=current` also `diff`: each kept field that differs from the saved article, as word
 * runs (`{value, added?, removed?}`), computed in the CPU pool (issue 25; 422 when the versions
 * are too different to compare within its time budget). The editor's History panel shows it.
 */
export const loader = apiRoute(async ({ request, params }: LoaderFunctionArgs) => {
  const actor = await requireUser(request);
  const revisionId = revisionIdOf(params.rev);
  if (!revisionId) return apiError(404, "Версію не знайдено");
  const compare = new URL(request.url).searchParams.get("compare");
  if (compare === null) return apiJson(await articleRevision({ actor, articleId: params.id ?? "", revisionId }));
  if (compare !== "current") return apiError(400, "Параметр compare може мати лише значення current");
  const { revision, diff } = await compareRevision({ actor, articleId: params.id ?? "", revisionId });
  return apiJson({ ...revision, diff });
});

export const action = () => methodNotAllowed(["GET"]);
