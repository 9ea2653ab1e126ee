import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { AuditFilterSchema, listAudit } from "~/models/audit.server";
import { requireRole } from "~/services/auth.server";
import { fieldErrors } from "~/utils/forms.server";
import { apiError, apiJson, apiRoute, listParams, methodNotAllowed } from "~/utils/http.server";
import { ADMINS } from "~/utils/roles";

/**
 * GET /api/audit?user=&action=&from=&to=&skip=&limit= → { data, total, skip, limit } (admins only):
 * the audit log, newest first (issue 25). `user` is a username as written at the time, `action`
 * one of app/utils/audit-actions.ts, `from` and `to` Kyiv calendar days (yyyy-mm-dd, both
 * included). A bad value is 422 with `errors`.
 */
export const loader = apiRoute(async ({ request }: LoaderFunctionArgs) => {
  await requireRole(request, ADMINS);
  const { skip, limit } = listParams(request, 50);
  const params = new URL(request.url).searchParams;
  const parsed = AuditFilterSchema.safeParse({ user: params.get("user"), action: params.get("action"), from: params.get("from"), to: params.get("to") });
  if (!parsed.success) return apiError(422, "Перевірте параметри запиту", { errors: fieldErrors(parsed.error) });
  const { entries, total } = await listAudit({ filter: parsed.data, skip, limit });
  return apiJson({ data: entries, total, skip, limit });
});

/** The log is append-only: there is nothing to post, change or delete here. */
export const action = apiRoute(async ({ request }: ActionFunctionArgs) => {
  await requireRole(request, ADMINS);
  return methodNotAllowed(["GET"]);
});
