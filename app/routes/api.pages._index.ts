import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { createPage, listPages, PageInputSchema } from "~/models/page.server";
import { requireRole, requireUser } from "~/services/auth.server";
import { apiJson, apiRoute, methodNotAllowed, parseJsonBody } from "~/utils/http.server";

// Static pages (issue 31 item 5, DESIGN §17). GET: every page, drafts included, for any staff
// member; POST: admins and editors (201).

export const loader = apiRoute(async ({ request }: LoaderFunctionArgs) => {
  await requireUser(request);
  const pages = await listPages();
  return apiJson({ data: pages, total: pages.length, skip: 0, limit: pages.length });
});

export const action = apiRoute(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const actor = await requireRole(request, ["admin", "editor"]);
  const input = await parseJsonBody(request, PageInputSchema);
  return apiJson(await createPage({ actor, input }), { status: 201 });
});
