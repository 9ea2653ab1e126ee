import { data, type AppLoadContext } from "@remix-run/node";
import { EditConflict } from "../models/article-conflict.server";
import { createArticle, getArticleById, updateArticle } from "../models/article.server";
import type { Actor } from "../models/audit.server";
import { FormTokenSpent, formTokenOf } from "../models/form-token.server";
import { storeImage } from "../models/media.server";
import { EDITOR_CONTENT_KEPT, keepInDocument } from "../utils/document-html";
import { DomainError } from "../utils/errors";
import type { FieldErrors } from "../utils/forms";
import { domainErrorFields, formFailure, parseForm } from "../utils/forms.server";
import { formIntent, UNKNOWN_INTENT } from "../utils/intent";
import { renderArticleHtml } from "../utils/markdown.server";
import { ArticleInputSchema, LIMITS, MESSAGES } from "../utils/newsroom-rules";
import { formatPublicDateTime } from "../utils/public-format";
import type { DiffField } from "../utils/revision-diff";
import type { KeptFields } from "../utils/revision-fields";
import type { ScienceValues } from "../utils/science-rules";
import { compareWithSaved } from "./article-history.server";
import { parseBylineForm, postedBylines } from "./byline-form.server";
import { redirectWithFlash } from "./flash.server";
import { scienceInput, scienceValues, sourceErrorsToRows } from "./science-form.server";

// The editor's action for /admin/articles/new and /admin/articles/edit/{id}: the form is parsed
// with the same schema as the JSON API and saved by the same model functions. The editor's
// values are defined here once; the component imports the type.

const EDITOR_FIELDS = [
  "title",
  "subtitle",
  "content",
  "status",
  "category_id",
  "tags",
  "featured_image",
  "featured_image_alt",
  "featured_image_caption",
  "slug",
  "seo_title",
  "seo_description",
  "version",
] as const;
/** The editor's text fields, as the form posts them. */
export type EditorValues = Record<(typeof EDITOR_FIELDS)[number], string>;

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** The featured image chosen in the form's file input, stored in the media library. */
async function storeFeaturedFile(file: File, actor: Actor): Promise<string> {
  if (!file.type.startsWith("image/")) throw new DomainError(422, MESSAGES.fileNotImage, "featured_image_file");
  if (file.size > LIMITS.imageBytes) throw new DomainError(422, MESSAGES.fileTooLarge, "featured_image_file");
  let bytes: Buffer;
  try {
    bytes = Buffer.from(await file.arrayBuffer());
  } catch {
    throw new DomainError(422, MESSAGES.fileReadError, "featured_image_file");
  }
  try {
    return (await storeImage({ bytes, fileName: file.name, userId: actor.id, actor })).url;
  } catch (error) {
    if (error instanceof DomainError) throw new DomainError(422, error.message, "featured_image_file");
    // An image the decoder cannot read is the SPEC's 'File loading error', not a server failure.
    console.warn("featured image refused:", error instanceof Error ? error.message : error);
    throw new DomainError(422, MESSAGES.fileReadError, "featured_image_file");
  }
}

export async function handleEditorAction({ request, actor, id, context }: { request: Request; actor: Actor; id?: string; context?: AppLoadContext }) {
  const noResult = {
    preview: null as string | null,
    created: null as { id: string; message: string } | null,
    /** "Save as draft" on a live article asks first (issue 17): the editor shows the question. */
    confirmUnpublish: false,
    /** The echoed text is in the page's markup only, not in `values` (document-html.ts). */
    contentInDocument: false,
    /** Issue 29: the embargo, sources and correction fields as posted (science-fields.tsx). */
    science: null as ScienceValues | null,
    /** Issue 31 item 12: a save refused by the version rule, with both versions compared. */
    conflict: null as EditorConflict | null,
  };
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return formFailure({ formError: "Некоректна форма" }, 400, noResult);
  }
  const values = Object.fromEntries(EDITOR_FIELDS.map((f) => [f, text(form, f)])) as EditorValues;
  const posted = formIntent(form, ["save", "draft", "publish", "preview", "edit", "keep-mine"]);
  // "Залишити мою версію" (issue 31 item 12) is the save the writer first asked for, now based on
  // the version they were shown (`conflict_version`): a third save meanwhile is a new conflict.
  const intent = posted === "keep-mine" ? (formIntent(form, CONFLICT_INTENTS, "conflict_intent") ?? "save") : posted;
  if (posted === "keep-mine") values.version = text(form, "conflict_version");
  noResult.science = scienceValues(form); // issue 29
  // A page answering a form post carries the text once, in its markup (issue 25: a refused 4 MB
  // text echoed in the markup and again in the action data held the request thread ~50 ms more).
  const echo = () => {
    if (!context || keepInDocument(context, EDITOR_CONTENT_KEPT, values.content) !== null) return { values, contentInDocument: false };
    return { values: { ...values, content: "" }, contentInDocument: true };
  };
  const done = (result: Partial<typeof noResult> = {}) => {
    const echoed = echo();
    return data({
      ok: true as const,
      errors: {} as FieldErrors,
      ...noResult,
      ...result,
      values: echoed.values,
      contentInDocument: echoed.contentInDocument,
      bylines: postedBylines(form),
    });
  };
  const fail = (failure: { errors?: FieldErrors; formError?: string }, status: number, more: Partial<typeof noResult> = {}) => {
    const echoed = echo();
    return formFailure({ ...failure, values: echoed.values }, status, {
      ...noResult,
      ...more,
      contentInDocument: echoed.contentInDocument,
      bylines: postedBylines(form),
    });
  };

  if (!intent) return fail({ formError: UNKNOWN_INTENT }, 400);
  // Without JavaScript the preview is a round trip rendered by the public pipeline, within the
  // save's limit (issue 25: one limit at every door) and the CPU pool's budgets.
  if (intent === "preview") {
    if (values.content.length > LIMITS.content) return fail({ errors: { content: MESSAGES.content } }, 422);
    try {
      return done({ preview: await renderArticleHtml(values.content) });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return fail(domainErrorFields(error), error.status);
    }
  }
  if (intent === "edit") return done();
  if (intent === "draft") {
    // Taking a live article down is never a side effect of a save: it is confirmed first (with
    // JavaScript by a dialog, without it by a second press of the button on the question shown).
    if (id && form.get("confirm_unpublish") !== "1" && (await getArticleById({ id }))?.status === "published") {
      return done({ confirmUnpublish: true });
    }
    values.status = "draft";
  }
  if (intent === "publish") values.status = "published";

  try {
    if (form.get("remove_featured_image") === "on") values.featured_image = "";
    const science = scienceInput(noResult.science); // issue 29
    if ("errors" in science) return fail(science, 422);
    const parsed = parseForm(ArticleInputSchema, { ...values, version: values.version || undefined, ...science.input });
    if (!parsed.ok) return fail({ ...parsed, errors: sourceErrorsToRows(noResult.science, parsed.errors) }, 422);
    const bylines = parseBylineForm(form); // issue 29: authors and noindex
    if (!bylines.ok) return fail(bylines, 422);
    Object.assign(parsed.data, bylines.data);
    // The file is stored once the rest is valid; its URL stays in the form if the save fails.
    const file = form.get("featured_image_file");
    if (file && typeof file !== "string" && file.size > 0 && form.get("remove_featured_image") !== "on") {
      parsed.data.featured_image = values.featured_image = await storeFeaturedFile(file, actor);
    }
    if (!id) {
      const article = await createArticle({ actor, input: parsed.data, formToken: formTokenOf(form.get("form_token")) });
      const message = article.status === "published" ? "Статтю успішно створено й опубліковано" : "Статтю успішно створено";
      // With JavaScript the editor shows the message and moves on after 1.5 s (SPEC §4).
      if (text(form, "js") === "1") return done({ created: { id: article.id, message } });
      return redirectWithFlash(request, `/admin/articles/edit/${article.id}`, message);
    }
    const article = await updateArticle({ actor, id, input: parsed.data });
    const message = intent === "publish" ? "Статтю успішно опубліковано" : "Статтю успішно оновлено";
    return redirectWithFlash(request, `/admin/articles/edit/${article.id}`, message);
  } catch (error) {
    if (error instanceof FormTokenSpent) {
      // Issue 31 item 13: the same new-article form sent again makes no second article.
      if (text(form, "js") === "1") return done({ created: { id: error.articleId, message: FORM_SENT_ONCE } });
      return redirectWithFlash(request, `/admin/articles/edit/${error.articleId}`, FORM_SENT_ONCE);
    }
    if (error instanceof EditConflict && id) {
      const mine = scienceFreeKept(values);
      const compared = await compareWithSaved({ actor, articleId: id, mine });
      const conflict: EditorConflict = {
        message: `Статтю вже змінив(ла) ${error.who} ${formatPublicDateTime(error.updatedAt)}, поки ви редагували. Ваші зміни ще не збережено.`,
        who: error.who,
        version: String(compared.version),
        intent: CONFLICT_INTENTS.includes(intent as ConflictIntent) ? (intent as ConflictIntent) : "save",
        diff: compared.diff,
        refused: compared.refused,
      };
      return fail({ formError: error.message }, 409, { conflict });
    }
    if (!(error instanceof DomainError)) throw error;
    return fail(domainErrorFields(error), error.status);
  }
}

const CONFLICT_INTENTS = ["save", "draft", "publish"] as const;
type ConflictIntent = (typeof CONFLICT_INTENTS)[number];

/** What the editor shows after a save refused by the version rule (issue 31 item 12). */
export interface EditorConflict {
  message: string;
  who: string;
  /** The version saved now: "keep mine" saves on top of it. */
  version: string;
  /** The save the writer asked for (its status rule applies again). */
  intent: ConflictIntent;
  /** The saved version (removed parts) against the writer's (added parts), word by word. */
  diff: DiffField[];
  /** Why the comparison is missing (too large or too different for the CPU budget), else null. */
  refused: string | null;
}

/** The posted text as the fields a revision keeps. */
function scienceFreeKept(values: EditorValues): KeptFields {
  const orNull = (v: string) => (v.trim() ? v : null);
  return {
    title: values.title,
    subtitle: orNull(values.subtitle),
    content: values.content,
    tags: values.tags
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean),
    category_id: orNull(values.category_id),
    seo_title: orNull(values.seo_title),
    seo_description: orNull(values.seo_description),
    featured_image: orNull(values.featured_image),
    featured_image_alt: orNull(values.featured_image_alt),
    featured_image_caption: orNull(values.featured_image_caption),
  };
}

const FORM_SENT_ONCE = "Статтю вже створено цією формою: повторне надсилання не створило копії";
