import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticate, LoginSchema } from "~/services/auth.server";
import { createSessionToken } from "~/services/session.server";
import { apiError, apiJson, apiRoute, methodNotAllowed, parseJsonBody } from "~/utils/http.server";

export const loader = () => methodNotAllowed(["POST"]);

/** POST /api/auth/login → { access_token, token_type: "bearer" } (DESIGN §6). */
export const action = apiRoute(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { username, password } = await parseJsonBody(request, LoginSchema);
  const result = await authenticate({ username, password, request });
  if (!result.ok) {
    return apiError(result.status, result.message, {
      headers: result.retryAfter ? { "Retry-After": String(result.retryAfter) } : undefined,
    });
  }
  const token = await createSessionToken({
    userId: result.user.id,
    kind: "bearer",
    userAgent: request.headers.get("User-Agent"),
  });
  return apiJson({ access_token: token, token_type: "bearer" });
});
