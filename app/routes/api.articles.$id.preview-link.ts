import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { articlePreviewLink } from "~/services/article-history.server";
import { requireUser } from "~/services/auth.server";
import { apiJson, apiRoute, methodNotAllowed, parseJsonBody } from "~/utils/http.server";

const PreviewLinkSchema = z
  .object({
    revoke: z.boolean({ invalid_type_error: "revoke: true або false" }).optional(),
    replace: z.boolean({ invalid_type_error: "replace: true або false" }).optional(),
  })
  .strict();

/**
 * POST /api/articles/{id}/preview-link (DESIGN §11), for who may edit the article: `{url,
 * expires_at}` of a new link valid 7 days; while one is live, 409 unless `{replace: true}` (issue 31
 * item 10: the old link then stops working); `{revoke: true}` ends the link and answers `{url:
 * null, expires_at: null, revoked: true}`.
 */
export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const actor = await requireUser(request);
  const body =
    request.headers.get("content-type") || Number(request.headers.get("content-length") ?? 0) > 0 ? await parseJsonBody(request, PreviewLinkSchema) : {};
  return apiJson(await articlePreviewLink({ actor, articleId: params.id ?? "", revoke: body.revoke, replace: body.replace }));
});

export const loader = () => methodNotAllowed(["POST"]);
