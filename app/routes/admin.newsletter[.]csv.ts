import type { LoaderFunctionArgs } from "@remix-run/node";
import { allSubscribers } from "~/models/newsletter.server";
import { requireRole } from "~/services/auth.server";
import { CSV_BOM, csvRow } from "~/utils/csv";
import { kyivToday } from "~/utils/dates";
import { SCREEN_ROLES } from "~/utils/roles";

// GET /admin/newsletter.csv (admin, editor; issue 28 item 3): every subscriber, oldest first.

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, SCREEN_ROLES["/admin/newsletter"]);
  const rows = await allSubscribers();
  const body =
    CSV_BOM + csvRow(["email", "status", "created_at", "confirmed_at"]) + rows.map((r) => csvRow([r.email, r.status, r.created_at, r.confirmed_at])).join("");
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="newsletter-subscribers-${kyivToday()}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
