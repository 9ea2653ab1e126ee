import type { ActionFunctionArgs } from "@remix-run/node";
import { submitUrl, SubmitUrlSchema } from "~/models/seo.server";
import { requireRole } from "~/services/auth.server";
import { apiJson, apiRoute, methodNotAllowed, parseJsonBody } from "~/utils/http.server";

export const loader = () => methodNotAllowed(["POST"]);

/** POST /api/seo/submit-url { url } (admin, editor); the URL must be a page of this site. */
export const action = apiRoute(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const user = await requireRole(request, ["admin", "editor"]);
  const { url } = await parseJsonBody(request, SubmitUrlSchema);
  return apiJson({ detail: "URL submitted for indexing successfully!", url: await submitUrl({ url, user }) });
});
