import type { ActionFunctionArgs } from "@remix-run/node";
import { buildExport } from "~/import/export.server";
import { requireRole } from "~/services/auth.server";
import { SCREEN_ROLES } from "~/utils/roles";

// POST /admin/import/export (admins only, issue 27): this site as one `science-news-export` JSON
// file (docs/import-export.md), downloaded. A POST: it is recorded in the audit log.

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireRole(request, SCREEN_ROLES["/admin/import"]);
  const doc = await buildExport({ actor });
  const day = doc.exported_at.slice(0, 10);
  return new Response(JSON.stringify(doc), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="science-news-export-${day}.json"`,
      "Cache-Control": "private, no-store",
    },
  });
}

export async function loader() {
  return new Response("Експорт завантажується кнопкою на сторінці /admin/import", {
    status: 405,
    headers: { Allow: "POST", "Content-Type": "text/plain; charset=utf-8" },
  });
}
