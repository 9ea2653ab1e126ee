import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { COMMENT_STATUSES, deleteCommentForGood, getModeratedComment, moderateComments } from "~/models/comment.server";
import { requireRole } from "~/services/auth.server";
import { apiError, apiJson, apiRoute, methodNotAllowed, parseJsonBody } from "~/utils/http.server";
import { EDITORS } from "~/utils/roles";

// One comment (issue 28, DESIGN §15; editors and admins): GET it, PATCH `{status}` to move it to a
// queue (approved, pending, spam, deleted), DELETE to remove it for good (with its replies).

const NOT_FOUND = "Коментар не знайдено";
const isId = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

const CommentPatchSchema = z
  .object({ status: z.enum(COMMENT_STATUSES, { errorMap: () => ({ message: "Статус: approved, pending, spam або deleted" }) }) })
  .strict("Можна змінити лише status");

export const loader = apiRoute(async ({ request, params }: LoaderFunctionArgs) => {
  await requireRole(request, EDITORS);
  const id = params.id ?? "";
  const comment = isId(id) ? await getModeratedComment({ id }) : undefined;
  if (!comment) return apiError(404, NOT_FOUND);
  return apiJson(comment);
});

export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  const id = params.id ?? "";
  if (request.method === "PATCH") {
    const actor = await requireRole(request, EDITORS);
    if (!isId(id) || !(await getModeratedComment({ id }))) return apiError(404, NOT_FOUND);
    const { status } = await parseJsonBody(request, CommentPatchSchema);
    await moderateComments({ ids: [id], status, actor });
    return apiJson(await getModeratedComment({ id }));
  }
  if (request.method === "DELETE") {
    const actor = await requireRole(request, EDITORS);
    if (!isId(id) || !(await deleteCommentForGood({ id, actor }))) return apiError(404, NOT_FOUND);
    return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  }
  await requireRole(request, EDITORS);
  return methodNotAllowed(["GET", "PATCH", "DELETE"]);
});
