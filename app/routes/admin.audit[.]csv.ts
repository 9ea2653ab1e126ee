import type { LoaderFunctionArgs } from "@remix-run/node";
import { AuditFilterSchema, exportAudit } from "~/models/audit.server";
import { requireRole } from "~/services/auth.server";
import { CSV_BOM, csvRow } from "~/utils/csv";
import { kyivToday } from "~/utils/dates";
import { SCREEN_ROLES } from "~/utils/roles";

// GET /admin/audit.csv?user=&action=&from=&to= (admins only, like the screen): every entry the
// screen's filter matches, newest first, as a CSV file (app/utils/csv.ts: formula-looking cells are
// neutralised). Streamed in batches, so a year of entries never sits in memory at once.

const COLUMNS = ["id", "created_at", "username", "user_id", "action", "action_label", "object_type", "object_id", "object_label", "ip", "details"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, SCREEN_ROLES["/admin/audit"]);
  const params = new URL(request.url).searchParams;
  const parsed = AuditFilterSchema.safeParse({ user: params.get("user"), action: params.get("action"), from: params.get("from"), to: params.get("to") });
  if (!parsed.success) {
    const message = parsed.error.issues.map((issue) => issue.message).join("; ");
    return new Response(`Фільтр журналу некоректний: ${message}`, {
      status: 422,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  }
  const entries = exportAudit({ filter: parsed.data });
  const encoder = new TextEncoder();
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk = started ? "" : CSV_BOM + csvRow(COLUMNS);
      started = true;
      // About 500 rows a chunk (one batch of the reader).
      for (let i = 0; i < 500; i++) {
        const next = await entries.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        const e = next.value;
        chunk += csvRow([
          e.id,
          e.created_at,
          e.username,
          e.user_id,
          e.action,
          e.action_label,
          e.object_type,
          e.object_id,
          e.object_label,
          e.ip,
          e.details ? JSON.stringify(e.details) : "",
        ]);
      }
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await entries.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-log-${kyivToday()}.csv"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
