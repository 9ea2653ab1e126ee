import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { listMedia, MEDIA_TYPES } from "~/models/media.server";
import { requireUser } from "~/services/auth.server";
import { FieldTooLargeError, NotMultipartError, parseImageUpload, UploadAbortedError } from "~/services/upload.server";
import { fieldErrors } from "~/utils/forms.server";
import { apiError, apiJson, apiRoute, listParams, methodNotAllowed } from "~/utils/http.server";

const ListQuery = z.object({
  q: z.string().max(200, "Не більше 200 символів").default(""),
  type: z.enum(MEDIA_TYPES, { message: "Один із: all, image, video, document" }).default("all"),
});

/** GET /api/media?q=&type=&skip=&limit= → { data, total, skip, limit } (any signed-in user). */
export const loader = apiRoute(async ({ request }: LoaderFunctionArgs) => {
  await requireUser(request);
  const { skip, limit } = listParams(request, 100);
  const url = new URL(request.url);
  const parsed = ListQuery.safeParse({ q: url.searchParams.get("q") ?? undefined, type: url.searchParams.get("type") ?? undefined });
  if (!parsed.success) return apiError(422, "Перевірте параметри запиту", { errors: fieldErrors(parsed.error) });
  const { data, total } = await listMedia({ ...parsed.data, skip, limit });
  return apiJson({ data, total, skip, limit });
});

/**
 * POST /api/media (multipart/form-data, one or more files in any field) → 201
 * `{ data: MediaItem[], rejected: [{name, reason}] }`. When no file is stored: 413 (too large),
 * 415 (not an accepted image type) or 422, with `rejected` naming each file and its reason.
 */
export const action = apiRoute(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed(["GET", "POST"]);
  const user = await requireUser(request);
  let result;
  try {
    result = await parseImageUpload(request, { actor: user });
  } catch (error) {
    if (error instanceof NotMultipartError) {
      return apiError(415, "Очікується multipart/form-data з файлами зображень");
    }
    if (error instanceof UploadAbortedError) return apiError(400, "Завантаження перервано: тіло запиту неповне");
    if (error instanceof FieldTooLargeError) {
      return apiError(413, "Текстове поле форми завелике");
    }
    throw error;
  }
  const { stored, rejected } = result;
  const report = rejected.map(({ name, reason }) => ({ name, reason }));
  if (stored.length > 0) return apiJson({ data: stored, rejected: report }, { status: 201 });
  if (rejected.length === 0) return apiError(422, "Додайте хоча б один файл зображення", { errors: { file: "Оберіть файл" } });
  const statuses = new Set(rejected.map((r) => r.status));
  const status = statuses.size === 1 ? rejected[0].status : 422;
  return apiJson({ detail: rejected.map((r) => r.reason).join("\n"), errors: { file: rejected[0].reason }, rejected: report }, { status });
});
