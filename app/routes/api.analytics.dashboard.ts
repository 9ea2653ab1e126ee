import type { LoaderFunctionArgs } from "@remix-run/node";
import { getDashboardStats } from "~/models/analytics.server";
import { requireUser } from "~/services/auth.server";
import { apiJson, apiRoute, methodNotAllowed } from "~/utils/http.server";

/** GET /api/analytics/dashboard → SPEC §3 'Dashboard statistics' (any signed-in staff, DESIGN §5). */
export const loader = apiRoute(async ({ request }: LoaderFunctionArgs) => {
  const reader = await requireUser(request);
  return apiJson(await getDashboardStats({ reader }));
});

export const action = () => methodNotAllowed(["GET"]);
