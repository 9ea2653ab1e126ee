import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getMenus, MenusInputSchema, saveMenus } from "~/models/menu.server";
import { requireRole, requireUser } from "~/services/auth.server";
import { apiJson, apiRoute, methodNotAllowed, parseJsonBody } from "~/utils/http.server";
import { SCREEN_ROLES } from "~/utils/roles";

// The menus (issue 31 item 5, DESIGN §17). GET: the header menu, the footer quick links, the social
// links and the categories not in the header menu, for any staff member. PUT (admins and editors):
// `{header?, footer?, social?}`, each menu a whole ordered list of `{id?, label, kind, category_id,
// page_id, url}` (an item without `id` is new; an unknown `id` is 404, a missing target 422); the
// answer is what GET answers. The same model function as /admin/menu.

export const loader = apiRoute(async ({ request }: LoaderFunctionArgs) => {
  await requireUser(request);
  return apiJson(await getMenus());
});

export const action = apiRoute(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== "PUT") return methodNotAllowed(["GET", "PUT"]);
  const actor = await requireRole(request, SCREEN_ROLES["/admin/menu"]);
  const input = await parseJsonBody(request, MenusInputSchema);
  return apiJson(await saveMenus({ actor, input }));
});
