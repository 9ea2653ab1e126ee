import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deletePage, getPageById, PageInputSchema, updatePage } from "~/models/page.server";
import { requireRole, requireUser } from "~/services/auth.server";
import { apiError, apiJson, apiRoute, methodNotAllowed, parseJsonBody } from "~/utils/http.server";

/** GET /api/pages/{id} (staff), PUT (admins and editors; the whole page), DELETE (204). */
export const loader = apiRoute(async ({ request, params }: LoaderFunctionArgs) => {
  await requireUser(request);
  const page = await getPageById({ id: params.id ?? "" });
  if (!page) return apiError(404, "Сторінку не знайдено");
  return apiJson(page);
});

export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  const id = params.id ?? "";
  if (request.method === "PUT") {
    const actor = await requireRole(request, ["admin", "editor"]);
    const input = await parseJsonBody(request, PageInputSchema);
    return apiJson(await updatePage({ actor, id, input }));
  }
  if (request.method === "DELETE") {
    const actor = await requireRole(request, ["admin", "editor"]);
    await deletePage({ actor, id });
    return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  }
  return methodNotAllowed(["GET", "PUT", "DELETE"]);
});
