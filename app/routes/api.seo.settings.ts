import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getSettings, SeoSettingsSchema, updateSeoSettings } from "~/models/settings.server";
import { requireRole } from "~/services/auth.server";
import { apiError, apiJson, apiRoute, methodNotAllowed, parseJsonBody } from "~/utils/http.server";

const SEO_FIELDS = Object.keys(SeoSettingsSchema.shape);
const BodySchema = z.record(z.unknown());

/** GET /api/seo/settings → { data: the eight SEO fields } (admin, editor). */
export const loader = apiRoute(async ({ request }: LoaderFunctionArgs) => {
  await requireRole(request, ["admin", "editor"]);
  return apiJson({ data: await getSettings("seo") });
});

/** PUT /api/seo/settings: any of the eight fields; others keep their values (admin only). */
export const action = apiRoute(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== "PUT") return methodNotAllowed(["GET", "PUT"]);
  const actor = await requireRole(request, ["admin"]);
  const body = await parseJsonBody(request, BodySchema);
  const changes = Object.fromEntries(Object.entries(body).filter(([key]) => SEO_FIELDS.includes(key)));
  const result = await updateSeoSettings(changes, actor);
  if (!result.ok) return apiError(422, "Перевірте правильність полів", { errors: result.errors });
  return apiJson({ data: result.seo });
});
