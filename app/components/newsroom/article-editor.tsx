import { Form, Link, useNavigate, useNavigation, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { Field } from "~/components/ui/field";
import type { loader as adminLoader } from "~/routes/admin";
import type { EditorConflict, EditorValues } from "~/services/article-form.server";
import { EDITOR_CONTENT_KEPT, useDocumentText } from "~/utils/document-html";
import { formFailureOf, type FieldErrors, type FormValues } from "~/utils/forms";
import { localDraftKey } from "~/utils/local-drafts";
import { markdownToHtml, SANITIZE_CONFIG } from "~/utils/markdown";
import { ARTICLE_STATUSES, LIMITS, MESSAGES, STATUS_LABELS } from "~/utils/newsroom-rules";
import { useUnsavedChangesWarning } from "~/utils/use-unsaved-changes";
import { ServerAutosave } from "./autosave";
import { BylinePanel } from "./byline-picker";
import { DraftOffer, type DraftCopy } from "./draft-offer";
import { EditConflictPanel } from "./edit-conflict";
import { FeaturedImagePanel } from "./featured-image-panel";
import { MarkdownToolbar } from "./markdown-toolbar";
import { SeoPanel } from "./seo-panel";
import { TimedMessage } from "./ui";

// The article editor (SPEC §2 'Article editor', Ukrainian). One <Form> that works without
// JavaScript (preview and confirmation are round trips, the featured image is a file input);
// with JavaScript: toolbar, live counters, instant preview, pending states, unsaved-changes warning.

export interface EditorProps {
  mode: "new" | "edit";
  /** The values as stored (or empty for a new article). */
  saved: EditorValues;
  /** What the editor's action answered, if it did (app/services/article-form.server.ts). */
  result?: {
    ok: boolean;
    values: FormValues;
    preview: string | null;
    created: { id: string; message: string } | null;
    confirmUnpublish?: boolean;
    /** The posted text is in the served page's markup, not in `values` (document-html.ts). */
    contentInDocument?: boolean;
    /** Issue 31 item 12: the save was refused by the version rule; both versions compared. */
    conflict?: EditorConflict | null;
  };
  categories: { id: string; name: string }[];
  canPublish: boolean;
  flash: string | null;
  publicUrl: string | null;
  /** Where the browser keeps the unsaved text (per article), restored after a new sign-in. */
  draftKey: string;
  /** Issue 15: History, preview link (shown under the toolbar). */
  tools?: ReactNode;
  /** Issue 29: the embargo, sources and correction fields (science-fields.tsx), inside the form. */
  science?: ReactNode;
  /** Issue 31 item 13: the new-article form's one-time token. */
  formToken?: string;
}

// Review and scheduled (issue 14) have their own calls (desk-panel.tsx): shown only as the current status.
const STATUS_OPTIONS = ARTICLE_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value], desk: value === "review" || value === "scheduled" }));

const EDITOR_FORM_ID = "article-editor-form";

const UNPUBLISH_QUESTION = "Стаття опублікована: збереження як чернетки зніме її з сайту, і читачі її більше не побачать.";

export function ArticleEditor(props: EditorProps) {
  const { mode, saved, result, categories, canPublish, flash, publicUrl, draftKey } = props;
  // After a post the form shows what was posted, with the action's messages. A page answering a
  // post without JavaScript carries the text once, in the control: read back from there.
  const keptContent = useDocumentText(EDITOR_CONTENT_KEPT, Boolean(result?.contentInDocument), 'form.editor [name="content"]');
  const initial: EditorValues = result ? { ...saved, ...result.values, ...(keptContent === undefined ? {} : { content: keptContent }) } : saved;
  const failure = formFailureOf(result);
  const postedErrors: FieldErrors = failure?.errors ?? {};
  const formError = failure?.formError;
  const serverPreview = result?.preview ?? null;
  const created = result?.created ?? null;
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const saving = navigation.state === "submitting";
  const [v, setV] = useState<EditorValues>(initial);
  const [previewing, setPreviewing] = useState(Boolean(serverPreview));
  const [previewHtml, setPreviewHtml] = useState<string | null>(serverPreview);
  const [fileError, setFileError] = useState<string | null>(null);
  const [featuredPreview, setFeaturedPreview] = useState<string | null>(null);
  const content = useRef<HTMLTextAreaElement>(null);
  // Fields changed since the last answer of the server: their messages from it no longer apply.
  const [changed, setChanged] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => setChanged(new Set()), [result]);
  const set = (name: keyof EditorValues) => (event: { target: { value: string } }) => {
    setV((old) => ({ ...old, [name]: event.target.value }));
    setChanged((old) => (old.has(name) ? old : new Set(old).add(name)));
  };

  const dirty = (Object.keys(initial) as (keyof EditorValues)[]).some((k) => initial[k] !== v[k]) || featuredPreview !== null;
  const incomplete = !v.title.trim() || !v.content.trim() || !v.category_id;
  // A field's message from the last post stays until the field is changed (issue 17). Compared by
  // change, not by value: a browser posts a textarea's newlines as CRLF, so the value the server
  // echoes back can differ from the one in the form.
  const errors: FieldErrors = hydrated ? Object.fromEntries(Object.entries(postedErrors).filter(([name]) => !changed.has(name))) : postedErrors;
  const live = saved.status === "published";
  const confirmUnpublish = Boolean(result?.confirmUnpublish);

  // SECURITY.md 'Sign-in and sessions': a session that expires mid-edit must not cost the text.
  // The browser keeps the unsaved values; after a successful save they are dropped.
  // Keyed by the signed-in author: never offered to whoever signs in next (issue 25).
  const admin = useRouteLoaderData<typeof adminLoader>("routes/admin");
  const storageKey = localDraftKey(admin?.user.id ?? "", draftKey);
  const [localDraft, setLocalDraft] = useState<{ values: EditorValues; savedAt: number } | null>(null);
  // Issue 31 item 9: the browser's copy joins the server's in one offer (draft-offer.tsx).
  const localCopy: DraftCopy | null = localDraft && {
    where: "browser",
    savedAt: new Date(localDraft.savedAt).toISOString(),
    restore: () => (setV((old) => ({ ...old, ...localDraft.values, version: old.version })), setLocalDraft(null)),
    discard: () => (window.localStorage.removeItem(storageKey), setLocalDraft(null)),
  };
  useEffect(() => {
    try {
      if (flash || created) return window.localStorage.removeItem(storageKey);
      const stored = JSON.parse(window.localStorage.getItem(storageKey) ?? "null");
      if (stored?.values && (Object.keys(initial) as (keyof EditorValues)[]).some((k) => k !== "version" && stored.values[k] !== initial[k])) {
        setLocalDraft(stored);
      }
    } catch {
      // Storage may be unavailable (private mode); the editor works without it.
    }
    // Only when the editor opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    if (created) window.localStorage.removeItem(storageKey);
  }, [created, storageKey]);
  useEffect(() => {
    if (!dirty || created) return;
    const timer = setTimeout(() => {
      try {
        window.localStorage.setItem(storageKey, JSON.stringify({ values: v, savedAt: Date.now() }));
      } catch {
        // ignore: storage full or unavailable
      }
    }, 500);
    return () => clearTimeout(timer);
  }, [v, dirty, created, storageKey]);

  // After a create, move to the edit route after 1.5 s (SPEC §4); nothing is unsaved any more.
  useEffect(() => {
    if (!created) return;
    const timer = setTimeout(() => navigate(`/admin/articles/edit/${created.id}`), 1500);
    return () => clearTimeout(timer);
  }, [created, navigate]);

  // Unsaved changes: warn before leaving the page or following an in-app link.
  useUnsavedChangesWarning(hydrated && dirty && !saving && !created);

  // Instant preview in the browser: the public markdown pipeline + DOMPurify on the native DOM.
  // Past the content limit nothing is rendered, as on the server (issue 25: one limit at every door).
  const tooLong = v.content.length > LIMITS.content;
  useEffect(() => {
    if (!previewing || !hydrated || tooLong) return;
    let live = true;
    void import("isomorphic-dompurify").then(({ default: DOMPurify }) => {
      if (live) setPreviewHtml(String(DOMPurify.sanitize(markdownToHtml(v.content), SANITIZE_CONFIG as unknown as Parameters<typeof DOMPurify.sanitize>[1])));
    });
    return () => {
      live = false;
    };
  }, [previewing, hydrated, tooLong, v.content]);

  const message = created?.message ?? flash;
  const errorBanner = formError ? `Error: ${formError}` : Object.keys(errors).length ? "Error saving article: перевірте позначені поля" : null;

  return (
    <section className="newsroom" aria-labelledby="editor-title">
      <div className="toolbar">
        <div className="editor-tabs">
          <Link to="/admin/articles" className="button button-secondary">
            ← Назад до статей
          </Link>
          <h2 id="editor-title" className="visually-hidden">
            {mode === "new" ? "Нова стаття" : "Редагування статті"}
          </h2>
        </div>
        {publicUrl ? (
          <a href={publicUrl} target="_blank" rel="noopener noreferrer" className="muted small">
            {publicUrl} ↗
          </a>
        ) : null}
      </div>
      {props.tools ? <div className="editor-tools">{props.tools}</div> : null}
      {mode === "edit" && hydrated && !created ? (
        <ServerAutosave
          articleId={draftKey}
          values={v}
          dirty={saving ? false : dirty}
          onRestore={(restored) => setV((old) => ({ ...old, ...restored, version: old.version }))}
          local={localCopy}
        />
      ) : null}
      <TimedMessage message={message} tone="ok" />
      {errorBanner ? (
        <p className="flash flash-error" role="alert">
          {errorBanner}
        </p>
      ) : null}
      {result?.conflict ? <EditConflictPanel conflict={result.conflict} formId={EDITOR_FORM_ID} /> : null}
      {!(mode === "edit" && hydrated && !created) && localCopy ? <DraftOffer copies={[localCopy]} /> : null}
      {fileError ? (
        <p className="flash flash-error" role="alert">
          {fileError}
        </p>
      ) : null}
      {confirmUnpublish ? (
        <p className="flash flash-error" role="alert">
          {UNPUBLISH_QUESTION} Натисніть «Зберегти як чернетку» ще раз, щоб підтвердити, або «Зберегти», щоб стаття лишилася опублікованою.
        </p>
      ) : null}

      <Form id={EDITOR_FORM_ID} method="post" encType="multipart/form-data" className="editor" noValidate>
        <input type="hidden" name="version" value={v.version} />
        <input type="hidden" name="js" value={hydrated ? "1" : ""} />
        {props.formToken ? <input type="hidden" name="form_token" value={props.formToken} /> : null}
        <div className="editor-main admin-card">
          <div className="editor-tabs" role="group" aria-label="Режим">
            <button
              type={hydrated ? "button" : "submit"}
              name={hydrated ? undefined : "intent"}
              value={hydrated ? undefined : "edit"}
              className={previewing ? "button button-secondary button-small" : "button button-primary button-small"}
              aria-pressed={!previewing}
              onClick={hydrated ? () => setPreviewing(false) : undefined}
            >
              Редагування
            </button>
            <button
              type={hydrated ? "button" : "submit"}
              name={hydrated ? undefined : "intent"}
              value={hydrated ? undefined : "preview"}
              className={previewing ? "button button-primary button-small" : "button button-secondary button-small"}
              aria-pressed={previewing}
              onClick={hydrated ? () => setPreviewing(true) : undefined}
            >
              Попередній перегляд
            </button>
          </div>

          <Field
            label="Заголовок"
            name="title"
            error={errors.title}
            counter={{ value: v.title, max: LIMITS.title }}
            value={v.title}
            onChange={set("title")}
            maxLength={LIMITS.title}
            required
          />
          <Field label="Підзаголовок" name="subtitle" error={errors.subtitle} value={v.subtitle} onChange={set("subtitle")} maxLength={LIMITS.subtitle} />

          {previewing ? (
            <div className="field">
              <h3 className="small muted">Попередній перегляд</h3>
              {tooLong ? (
                <div className="editor-preview" data-testid="preview">
                  <p className="field-error" role="alert">
                    {MESSAGES.content}
                  </p>
                </div>
              ) : v.content.trim() && previewHtml ? (
                // Sanitised by DOMPurify (browser) or the server pipeline before it gets here.
                <div className="editor-preview article-body" data-testid="preview" dangerouslySetInnerHTML={{ __html: previewHtml }} />
              ) : (
                <div className="editor-preview" data-testid="preview">
                  <p className="muted">No content to display</p>
                </div>
              )}
              {/* Keep the text in the form while previewing. */}
              <input type="hidden" name="content" value={v.content} />
            </div>
          ) : (
            <Field as="custom" label="Вміст (Markdown)" name="content" error={errors.content} counter={{ value: v.content, max: LIMITS.content }}>
              {(control) => (
                <>
                  {hydrated ? <MarkdownToolbar area={content} onText={(text) => setV((old) => ({ ...old, content: text }))} onError={setFileError} /> : null}
                  <textarea {...control} ref={content} rows={20} value={v.content} onChange={set("content")} />
                </>
              )}
            </Field>
          )}
        </div>

        <div className="editor-side">
          <div className="editor-panel">
            <h3>Публікація</h3>
            <Field as="select" label="Статус" name="status" error={errors.status} value={v.status} onChange={set("status")}>
              {STATUS_OPTIONS.filter((o) => o.value === initial.status || (!o.desk && (canPublish || o.value === "draft"))).map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </Field>
            <Field
              as="select"
              label="Категорія"
              name="category_id"
              error={errors.category_id}
              hint={categories.length === 0 ? "Категорій ще немає. Зверніться до адміністратора або редактора, щоб їх додали." : undefined}
              value={v.category_id}
              onChange={set("category_id")}
              required
            >
              <option value="">— Оберіть категорію —</option>
              {categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </Field>
            <Field label="Теги (через кому)" name="tags" error={errors.tags} value={v.tags} onChange={set("tags")} placeholder="космос, NASA, телескоп" />
            {mode === "edit" ? (
              <Field label="Slug (адреса статті)" name="slug" error={errors.slug} value={v.slug} onChange={set("slug")} maxLength={LIMITS.slug} />
            ) : null}
            <div className="editor-actions">
              {/* With JavaScript the question is a dialog; without it, the server asks (confirmUnpublish). */}
              <input type="hidden" name="confirm_unpublish" value={hydrated || confirmUnpublish ? "1" : ""} />
              <button
                type="submit"
                name="intent"
                value="draft"
                className="button button-secondary"
                disabled={saving}
                onClick={(event) => {
                  if (live && !window.confirm(`${UNPUBLISH_QUESTION} Зберегти як чернетку?`)) event.preventDefault();
                }}
              >
                {saving && navigation.formData?.get("intent") === "draft" ? "Збереження…" : "Зберегти як чернетку"}
              </button>
              {canPublish ? (
                <button type="submit" name="intent" value="publish" className="button button-primary" disabled={saving || (hydrated && incomplete)}>
                  {saving && navigation.formData?.get("intent") === "publish" ? "Публікація…" : live ? "Оновити публікацію" : "Опублікувати"}
                </button>
              ) : null}
              <button type="submit" name="intent" value="save" className="button button-secondary" disabled={saving}>
                {saving && navigation.formData?.get("intent") === "save" ? "Збереження…" : "Зберегти"}
              </button>
            </div>
            {!canPublish ? <p className="muted small">Репортер зберігає чернетки; публікує редактор.</p> : null}
          </div>

          {props.science}
          <FeaturedImagePanel
            image={v.featured_image}
            alt={v.featured_image_alt}
            caption={v.featured_image_caption}
            errors={errors}
            preview={featuredPreview}
            onPreview={setFeaturedPreview}
            onAlt={set("featured_image_alt")}
            onCaption={set("featured_image_caption")}
            onError={setFileError}
          />

          <SeoPanel title={v.seo_title} description={v.seo_description} errors={errors} onTitle={set("seo_title")} onDescription={set("seo_description")} />
          <BylinePanel />
        </div>
      </Form>
    </section>
  );
}
