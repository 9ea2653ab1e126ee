import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deleteMedia, getMedia } from "~/models/media.server";
import { requireUser } from "~/services/auth.server";
import { apiError, apiJson, apiRoute, methodNotAllowed } from "~/utils/http.server";

/** GET /api/media/{id} (any signed-in user). */
export const loader = apiRoute(async ({ request, params }: LoaderFunctionArgs) => {
  await requireUser(request);
  const item = await getMedia({ id: params.id ?? "" });
  if (!item) return apiError(404, "Файл не знайдено");
  return apiJson(item);
});

/** DELETE /api/media/{id} → 204: the row, the original and its variants (DESIGN §5 permissions). */
export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== "DELETE") return methodNotAllowed(["GET", "DELETE"]);
  const user = await requireUser(request);
  await deleteMedia({ ids: [params.id ?? ""], user });
  // No public page changes: pages keep the stored URL of an image either way (docs/decisions/010).
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
});
