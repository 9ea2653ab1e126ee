import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { CommentFilterSchema, listComments } from "~/models/comment.server";
import { requireRole } from "~/services/auth.server";
import { fieldErrors } from "~/utils/forms.server";
import { apiError, apiJson, apiRoute, listParams, methodNotAllowed } from "~/utils/http.server";
import { EDITORS } from "~/utils/roles";

/**
 * GET /api/comments?status=&article_id=&q=&skip=&limit= → { data, total, skip, limit } (editors and
 * admins; issue 28, DESIGN §15): one moderation queue, newest first; `status` defaults to pending.
 * Each comment carries its article and the author's email and address (staff only).
 */
export const loader = apiRoute(async ({ request }: LoaderFunctionArgs) => {
  await requireRole(request, EDITORS);
  const { skip, limit } = listParams(request, 20);
  const params = new URL(request.url).searchParams;
  const parsed = CommentFilterSchema.safeParse({ status: params.get("status"), article_id: params.get("article_id"), q: params.get("q") });
  if (!parsed.success) return apiError(422, "Перевірте параметри запиту", { errors: fieldErrors(parsed.error) });
  const { comments, total } = await listComments({ filter: parsed.data, skip, limit });
  return apiJson({ data: comments, total, skip, limit });
});

/** Readers post on the article's page; staff only read and moderate here. */
export const action = apiRoute(async ({ request }: ActionFunctionArgs) => {
  await requireRole(request, EDITORS);
  return methodNotAllowed(["GET"]);
});
