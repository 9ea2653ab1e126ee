import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { clearAutosave, getNewerAutosave, saveAutosave } from "~/models/article-autosave.server";
import { requireEditableArticle } from "~/services/article-history.server";
import { requireUser } from "~/services/auth.server";
import { apiJson, apiRoute, methodNotAllowed, parseJsonBody } from "~/utils/http.server";

// The editor's server-side autosave (issue 15), one copy per article and signed-in user, for who
// may edit the article: GET answers `{autosave: {saved_at, fields} | null}` (only a copy newer
// than the saved article), PUT `{fields}` replaces it, DELETE discards it (204).

const text = (max: number) => z.string({ invalid_type_error: "Має бути текстом" }).max(max, "Задовге значення").optional();
const FieldsSchema = z
  .object({
    title: text(10_000),
    subtitle: text(10_000),
    content: text(8 * 1024 * 1024),
    status: text(20),
    category_id: text(100),
    tags: text(10_000),
    featured_image: text(10_000),
    featured_image_alt: text(10_000),
    featured_image_caption: text(10_000),
    slug: text(1_000),
    seo_title: text(10_000),
    seo_description: text(10_000),
  })
  .strict();
const AutosaveSchema = z.object({ fields: FieldsSchema }).strict();

async function editable(request: Request, id: string) {
  const actor = await requireUser(request);
  const article = await requireEditableArticle(actor, id);
  return { actor, article };
}

export const loader = apiRoute(async ({ request, params }: LoaderFunctionArgs) => {
  const { actor, article } = await editable(request, params.id ?? "");
  return apiJson({ autosave: await getNewerAutosave({ articleId: article.id, userId: actor.id }) });
});

export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== "PUT" && request.method !== "DELETE") return methodNotAllowed(["GET", "PUT", "DELETE"]);
  const { actor, article } = await editable(request, params.id ?? "");
  if (request.method === "DELETE") {
    await clearAutosave({ articleId: article.id, userId: actor.id });
    return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
  }
  const { fields } = await parseJsonBody(request, AutosaveSchema);
  const clean = Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  return apiJson(await saveAutosave({ articleId: article.id, userId: actor.id, fields: clean }));
});
