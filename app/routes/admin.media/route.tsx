import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams, useSubmit } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { z } from "zod";
import type { AdminHandle } from "~/components/admin/nav";
import { ConfirmStep } from "~/components/newsroom/ui";
import { deleteMedia, getMedia, listMedia, MEDIA_ALT_MAX, mediaStats, mediaUsage, setMediaAlt, type MediaItem } from "~/models/media.server";
import { requireUser } from "~/services/auth.server";
import { redirectWithFlash, takeFlash } from "~/services/flash.server";
import { FieldTooLargeError, NotMultipartError, parseImageUpload, UploadAbortedError, type Rejection } from "~/services/upload.server";
import styles from "~/styles/media.css";
import newsroomStyles from "~/styles/newsroom.css";
import { DomainError } from "~/utils/errors";
import { formFailureOf, type FormFailure } from "~/utils/forms";
import { formFailure, parseForm } from "~/utils/forms.server";
import { formIntent, UNKNOWN_INTENT } from "~/utils/intent";
import { MEDIA_TYPES, type MediaTypeFilter } from "~/utils/media-types";
import { AltDialog } from "./alt-dialog";
import { MediaCard } from "./media-card";
import { UploadTab, type UploadResult } from "./upload-tab";

const TITLE = "Media Library";
export const handle: AdminHandle = { title: "Медіа" };
// newsroom.css brings the pager shared with the article list.
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: newsroomStyles },
  { rel: "stylesheet", href: styles },
];
export const meta: MetaFunction = () => [{ title: `Медіа — Admin Panel` }];

const TYPE_LABELS: Record<MediaTypeFilter, string> = { all: "All types", image: "Images", video: "Videos", document: "Documents" };

function readQuery(url: URL) {
  const q = (url.searchParams.get("q") ?? "").slice(0, 200);
  const rawType = url.searchParams.get("type") ?? "all";
  const type = (MEDIA_TYPES as readonly string[]).includes(rawType) ? (rawType as MediaTypeFilter) : "all";
  const view = url.searchParams.get("view") === "list" ? "list" : "grid";
  const tab = url.searchParams.get("tab") === "upload" ? "upload" : "library";
  const page = Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1);
  return { q, type, view, tab, page } as const;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const { q, type, page } = readQuery(url);
  const altId = url.searchParams.get("alt");
  const [{ data: items, total }, stats, { flash, headers }, altItem] = await Promise.all([
    listMedia({ q, type, skip: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE }),
    mediaStats(),
    takeFlash(request),
    altId ? getMedia({ id: altId }) : undefined,
  ]);
  return data(
    { items, shown: total, pages: Math.max(1, Math.ceil(total / PAGE_SIZE)), stats, user: { id: user.id, role: user.role }, flash, altItem: altItem ?? null },
    { headers },
  );
}

// Pages of the library (issue 17: a newsroom soon has more than the 500 one page used to show).
const PAGE_SIZE = 100;

const AltSchema = z.object({
  id: z.string().min(1).max(64),
  alt: z
    .string()
    .trim()
    .max(MEDIA_ALT_MAX, `Не більше ${MEDIA_ALT_MAX} символів`)
    .transform((v) => v || null),
});

const NOTHING_STORED = { intent: "upload" as const, stored: [] as MediaItem[], rejected: [] as Rejection[] };

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  if (/^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "")) {
    try {
      const { stored, rejected } = await parseImageUpload(request, { actor: user });
      if (stored.length + rejected.length === 0) return formFailure({ formError: "Оберіть хоча б одне зображення" }, 200, NOTHING_STORED);
      if (!stored.length) return formFailure({}, 422, { ...NOTHING_STORED, rejected });
      return data({ ok: true as const, intent: "upload" as const, stored, rejected });
    } catch (error) {
      if (error instanceof NotMultipartError || error instanceof UploadAbortedError || error instanceof FieldTooLargeError) {
        return formFailure({ formError: "Upload failed. Please try again." }, 400, NOTHING_STORED);
      }
      throw error;
    }
  }
  const form = await request.formData();
  const deleteFailed = (formError: string, status: number) => formFailure({ formError }, status, { intent: "delete" as const });
  const intent = formIntent(form, ["delete", "alt"]);
  if (!intent) return deleteFailed(UNKNOWN_INTENT, 400);
  const back = new URLSearchParams(url.search);
  back.delete("index");
  back.delete("alt");
  const backTo = `/admin/media${back.toString() ? `?${back}` : ""}`;
  if (intent === "alt") {
    const parsed = parseForm(AltSchema, form);
    if (!parsed.ok) return formFailure(parsed, 422, { intent: "alt" as const });
    try {
      const item = await setMediaAlt({ id: parsed.data.id, alt: parsed.data.alt, user });
      return redirectWithFlash(request, backTo, `Опис «${item.name}» збережено`);
    } catch (error) {
      if (error instanceof DomainError) return formFailure({ formError: error.message }, error.status, { intent: "alt" as const });
      throw error;
    }
  }
  const ids = form
    .getAll("ids")
    .flatMap((v) => (typeof v === "string" ? v.split(",") : []))
    .filter((v) => v.length > 0)
    .slice(0, 500);
  if (ids.length === 0) return deleteFailed("Оберіть зображення для видалення", 422);
  // An image an article uses is deleted only once the deleting person has seen where (issue 17).
  if (form.get("confirmed_use") !== "1") {
    const usage = await mediaUsage({ ids });
    if (usage.length) return data({ ok: true as const, intent: "delete" as const, usage, ids });
  }
  try {
    const count = await deleteMedia({ ids, user });
    // No public page changes: pages keep the stored URL of an image either way (docs/decisions/010).
    return redirectWithFlash(request, backTo, `Видалено зображень: ${count}`);
  } catch (error) {
    if (error instanceof DomainError) return deleteFailed(error.message, error.status);
    throw error;
  }
}

export default function MediaScreen() {
  const { items, stats, user, flash, pages, altItem } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const failure = formFailureOf(actionData);
  const altFailure = actionData && "intent" in actionData && actionData.intent === "alt" ? failure : undefined;
  const [params] = useSearchParams();
  const { q, type, view, tab, page } = readQuery(new URL(`http://x/?${params}`));
  const usage = actionData && "usage" in actionData ? actionData : null;
  const withParams = (changes: Record<string, string | null>) => {
    const p = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null) p.delete(name);
      else p.set(name, value);
    }
    const s = p.toString();
    return s ? `?${s}` : "/admin/media";
  };
  const [selected, setSelected] = useState<string[]>([]);
  const [toast, setToast] = useState<string | null>(null);
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const submit = useSubmit();
  const searchTimer = useRef<ReturnType<typeof setTimeout>>();

  // Keep the selection to items still shown (after a delete or a new search).
  useEffect(() => {
    setSelected((current) => current.filter((id) => items.some((item) => item.id === id)));
  }, [items]);
  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setToast(null), 3000);
    return () => clearTimeout(timer);
  }, [toast]);

  const canDelete = (item: MediaItem) => user.role !== "reporter" || item.uploadedBy === user.id;
  const toggle = (id: string) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));
  const copyMarkdown = async (item: MediaItem) => {
    try {
      await navigator.clipboard.writeText(`![${(item.alt ?? item.name).replace(/[[\]]/g, "")}](${item.url})`);
      setToast("Markdown скопійовано: вставте його в текст статті");
    } catch {
      setToast("Не вдалося скопіювати");
    }
  };
  const copyUrl = async (url: string) => {
    try {
      await navigator.clipboard.writeText(new URL(url, window.location.origin).href);
      setToast("Image URL copied to clipboard!");
    } catch {
      setToast("Не вдалося скопіювати адресу");
    }
  };
  const tabHref = (next: "library" | "upload") => {
    const p = new URLSearchParams(params);
    if (next === "upload") p.set("tab", "upload");
    else p.delete("tab");
    const s = p.toString();
    return s ? `?${s}` : ".";
  };
  const filtering = q.trim() !== "" || type !== "all";

  return (
    <section className="admin-card media-screen" aria-labelledby="media-title">
      <div className="screen-head">
        <h2 id="media-title">{TITLE}</h2>
        <p className="screen-subtitle">Manage your images and media files</p>
      </div>

      <div className="stat-grid media-stats">
        <Counter label="Total Images" value={String(stats.total)} />
        <Counter label="Total Size" value={totalSize(stats.bytes)} />
        <Counter label="This Week" value={String(stats.lastWeek)} />
        <Counter label="Selected" value={String(selected.length)} />
      </div>

      {flash ? (
        <p className="flash flash-ok" role="status">
          {flash}
        </p>
      ) : null}
      {toast ? (
        <p className="media-toast" role="status">
          {toast}
        </p>
      ) : null}

      <nav className="media-tabs" aria-label="Media tabs">
        <Link to={tabHref("library")} aria-current={tab === "library" ? "page" : undefined} preventScrollReset>
          Media Library
        </Link>
        <Link to={tabHref("upload")} aria-current={tab === "upload" ? "page" : undefined} preventScrollReset>
          Upload
        </Link>
      </nav>

      {tab === "upload" ? (
        <UploadTab actionData={actionData?.intent === "upload" ? (actionData as UploadResult & Partial<FormFailure>) : undefined} onCopy={copyUrl} />
      ) : (
        <>
          <Form method="get" className="media-filters" role="search">
            <label className="visually-hidden" htmlFor="media-search">
              Search media
            </label>
            <input
              id="media-search"
              type="search"
              name="q"
              defaultValue={q}
              placeholder="Search media..."
              onChange={(event) => {
                const form = event.currentTarget.form;
                clearTimeout(searchTimer.current);
                searchTimer.current = setTimeout(() => form && submit(form, { replace: true, preventScrollReset: true }), 250);
              }}
            />
            <label className="visually-hidden" htmlFor="media-type">
              Type
            </label>
            <select
              id="media-type"
              name="type"
              defaultValue={type}
              onChange={(event) => submit(event.currentTarget.form, { replace: true, preventScrollReset: true })}
            >
              {MEDIA_TYPES.map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABELS[t]}
                </option>
              ))}
            </select>
            <noscript>
              <button type="submit" className="button button-secondary">
                Search
              </button>
            </noscript>
            <div className="view-buttons" role="group" aria-label="View">
              {/* The view buttons belong to their own small form (below), so a query never says view twice. */}
              <button type="submit" form="media-view" name="view" value="grid" className="button button-secondary button-small" aria-pressed={view === "grid"}>
                Grid
              </button>
              <button type="submit" form="media-view" name="view" value="list" className="button button-secondary button-small" aria-pressed={view === "list"}>
                List
              </button>
            </div>
            <input type="hidden" name="view" value={view} />
          </Form>
          <Form method="get" id="media-view" hidden>
            {q ? <input type="hidden" name="q" value={q} /> : null}
            {type !== "all" ? <input type="hidden" name="type" value={type} /> : null}
          </Form>

          <Form
            method="post"
            id="media-delete"
            onSubmit={(event) => {
              const n = new FormData(event.currentTarget).getAll("ids").length;
              if (!window.confirm(`Delete ${n} selected image(s)?`)) event.preventDefault();
            }}
          >
            <input type="hidden" name="intent" value="delete" />
            <div className="toolbar">
              <span className="muted small">{items.length} shown</span>
              <button type="submit" className="button button-danger" disabled={navigation.state === "submitting" || (hydrated && selected.length === 0)}>
                Delete Selected ({selected.length})
              </button>
            </div>
            {actionData?.intent === "delete" && failure?.formError ? (
              <p className="form-error" role="alert">
                {failure.formError}
              </p>
            ) : null}

            {items.length === 0 ? (
              <div className="media-empty">
                {filtering ? (
                  <>
                    <h3>No media found</h3>
                    <p>Try adjusting your search terms</p>
                  </>
                ) : (
                  <>
                    <h3>No media uploaded yet</h3>
                    <p>Upload your first image to get started</p>
                  </>
                )}
              </div>
            ) : (
              <ul className={view === "list" ? "media-list" : "media-grid"} aria-label="Media">
                {items.map((item) => (
                  <MediaCard
                    key={item.id}
                    item={item}
                    selected={selected.includes(item.id)}
                    canChange={canDelete(item)}
                    hydrated={hydrated}
                    altHref={withParams({ alt: item.id })}
                    onToggle={() => toggle(item.id)}
                    onCopyUrl={() => copyUrl(item.url)}
                    onCopyMarkdown={() => copyMarkdown(item)}
                  />
                ))}
              </ul>
            )}
          </Form>
          {pages > 1 ? (
            <nav className="pager" aria-label="Сторінки медіатеки">
              {page > 1 ? <Link to={withParams({ page: String(page - 1) })}>← Попередня</Link> : null}
              <span aria-current="page" className="pager-current">
                Сторінка {page} з {pages}
              </span>
              {page < pages ? <Link to={withParams({ page: String(page + 1) })}>Наступна →</Link> : null}
            </nav>
          ) : null}
        </>
      )}
      {altItem ? <AltDialog item={altItem} closeTo={withParams({ alt: null })} failure={altFailure} maxLength={MEDIA_ALT_MAX} /> : null}
      {usage ? (
        <ConfirmStep
          question={`Ці зображення використовуються в статтях: ${usage.usage
            .map((u) => `«${u.name}» — ${u.articles.map((a) => `«${a.title}»`).join(", ")}`)
            .join("; ")}. Статті показуватимуть зламане зображення. Усе одно видалити?`}
          fields={{ intent: "delete", ids: usage.ids.join(","), confirmed_use: "1" }}
          confirmLabel="Видалити"
          cancelTo={withParams({})}
          danger
        />
      ) : null}
    </section>
  );
}

/** Total size: megabytes to one decimal, or kilobytes below 1 MB (three small images are not "0.0 MB"). */
function totalSize(bytes: number) {
  if (bytes < 1024 * 1024) return `${bytes === 0 ? 0 : Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function Counter({ label, value }: { label: string; value: string }) {
  return (
    <div className="stat-card">
      <p className="stat-label">{label}</p>
      <p className="stat-value">{value}</p>
    </div>
  );
}
