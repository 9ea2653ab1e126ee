import { z } from "zod";
import { DESK_TEXT, NOTE_MAX, publishArticle, returnArticle, submitArticle } from "../models/article-desk.server";
import { getArticleById, setArticleStatus } from "../models/article.server";
import type { Actor } from "../models/audit.server";
import { kyivLocalToIso } from "../utils/dates";
import { DomainError } from "../utils/errors";
import { formatDateTime } from "../utils/format";
import { formFailure, parseForm } from "../utils/forms.server";
import { formIntent, UNKNOWN_INTENT } from "../utils/intent";
import { redirectWithFlash } from "./flash.server";

// The desk's forms posted without JavaScript (admin.articles.desk.$id.tsx, issue 14): the same
// domain functions as the JSON calls; success goes back to the editor with a flash message.

export const DESK_INTENTS = ["submit", "return", "schedule", "unschedule"] as const;

const DeskFormSchema = z.object({
  note: z.string().max(NOTE_MAX, DESK_TEXT.noteTooLong).optional(),
  publish_at_local: z.string().max(40, DESK_TEXT.timeLocalMalformed).optional(),
  // "Коли опублікувати": now, or at the time in the field (the default).
  when: z.enum(["now", "at"]).default("at"),
});

export async function handleDeskAction({ request, actor, id }: { request: Request; actor: Actor; id: string }) {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return formFailure({ formError: "Некоректна форма" }, 400);
  }
  const intent = formIntent(form, DESK_INTENTS);
  if (!intent) return formFailure({ formError: UNKNOWN_INTENT }, 400);
  const parsed = parseForm(DeskFormSchema, form);
  if (!parsed.ok) return formFailure(parsed, 422);
  const { note = "", publish_at_local: local = "", when } = parsed.data;
  const values = { note, publish_at_local: local, when };
  const editor = `/admin/articles/edit/${id}`;
  try {
    if (intent === "submit") {
      await submitArticle({ actor, id, note });
      return redirectWithFlash(request, editor, "Статтю надіслано на перевірку");
    }
    if (intent === "return") {
      await returnArticle({ actor, id, note });
      return redirectWithFlash(request, editor, "Статтю повернуто автору");
    }
    if (intent === "schedule" && when === "now") {
      await publishArticle({ actor, id });
      return redirectWithFlash(request, editor, "Статтю успішно опубліковано");
    }
    if (intent === "unschedule") {
      const current = await getArticleById({ id });
      if (current && current.status !== "scheduled") throw new DomainError(409, "Стаття не запланована");
      await setArticleStatus({ actor, id, status: "draft" });
      return redirectWithFlash(request, editor, "Планування скасовано: стаття знову чернетка");
    }
    const iso = kyivLocalToIso(local);
    // The role and the article come first (403, 404), then the time (422), as on the JSON call.
    const article = await publishArticle({ actor, id, publishAt: iso ?? "invalid" });
    return redirectWithFlash(request, editor, `Статтю заплановано на ${formatDateTime(article.published_at)} (Київ)`);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    if (error.field === "publish_at") {
      const message = error.message === DESK_TEXT.timeMalformed ? DESK_TEXT.timeLocalMalformed : error.message;
      return formFailure({ values, errors: { publish_at_local: message } }, error.status);
    }
    if (error.field === "note") return formFailure({ values, errors: { note: error.message } }, error.status);
    return formFailure({ values, formError: error.message }, error.status);
  }
}
