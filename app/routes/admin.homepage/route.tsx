import {
  DndContext,
  DragOverlay,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type DragStartEvent,
  type UniqueIdentifier,
} from "@dnd-kit/core";
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect, useMemo, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import type { AdminHandle } from "~/components/admin/nav";
import { BLOCK_IDS, getPublishedLayout, HOMEPAGE_BLOCKS, HomepageConfigSchema, listEditorArticles, saveHomepageLayout } from "~/models/homepage.server";
import { requireRole } from "~/services/auth.server";
import { redirectWithFlash, takeFlash } from "~/services/flash.server";
import styles from "~/styles/homepage-editor.css";
import { DomainError } from "~/utils/errors";
import { formFailureOf } from "~/utils/forms";
import { formFailure } from "~/utils/forms.server";
import { formIntent, UNKNOWN_INTENT } from "~/utils/intent";
import { SCREEN_ROLES } from "~/utils/roles";
import { useUnsavedChangesWarning } from "~/utils/use-unsaved-changes";
import { applyLayoutOp, type BlockInfo, type Layout, type LayoutOp } from "./homepage-ops";
import { ArticleRow, BlockPanel, HelpPanel } from "./homepage-parts";
import { useKeyboardMove } from "./keyboard-move";

const TITLE = "Редактор головної";
export const handle: AdminHandle = { title: TITLE };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

const SAVED = "Конфігурацію головної сторінки збережено!";
const SAVE_FAILED = "Помилка збереження конфігурації головної сторінки";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, SCREEN_ROLES["/admin/homepage"]);
  const layout = await getPublishedLayout();
  const [articles, { flash, headers }] = await Promise.all([listEditorArticles(layout), takeFlash(request)]);
  return data({ blocks: HOMEPAGE_BLOCKS.map((b) => ({ ...b })), layout: layout as Layout, articles, flash }, { headers });
}

const failed = (formError: string, status: number) => formFailure({ formError }, status);

/** The line the editor shows for an action's result. */
function resultMessage(result: unknown): { ok: boolean; text: string } {
  const failure = formFailureOf(result);
  return failure ? { ok: false, text: failure.formError ?? "" } : { ok: true, text: (result as { message: string }).message };
}

const int = (value: FormDataEntryValue | null) => {
  const n = Number.parseInt(typeof value === "string" ? value : "", 10);
  return Number.isFinite(n) ? n : -1;
};
const str = (value: FormDataEntryValue | null) => (typeof value === "string" ? value : "");

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireRole(request, SCREEN_ROLES["/admin/homepage"]);
  const form = await request.formData();
  const intent = formIntent(form, ["save", "add", "remove", "up", "down"]);
  if (!intent) return failed(UNKNOWN_INTENT, 400);
  try {
    if (intent === "save") {
      let parsed;
      try {
        parsed = HomepageConfigSchema.safeParse(JSON.parse(str(form.get("config"))));
      } catch {
        parsed = undefined;
      }
      if (!parsed?.success) return failed(SAVE_FAILED, 422);
      const layout = await saveHomepageLayout(parsed.data.blocks, actor);
      return data({ ok: true as const, message: SAVED, layout });
    }
    // Without JavaScript each change is applied to the saved layout at once.
    const blockId = str(form.get("blockId"));
    let op: LayoutOp;
    if (intent === "add") op = { type: "add", blockId, articleId: str(form.get("articleId")) };
    else if (intent === "remove") op = { type: "remove", blockId, index: int(form.get("index")) };
    else if (intent === "up" || intent === "down") {
      const index = int(form.get("index"));
      op = { type: "move", blockId, from: index, to: intent === "up" ? index - 1 : index + 1 };
    } else return failed("Невідома дія", 400);
    const current = (await getPublishedLayout()) as Layout;
    const result = applyLayoutOp(HOMEPAGE_BLOCKS, current, op);
    if (!result.ok) return failed(result.reason, 422);
    await saveHomepageLayout(
      BLOCK_IDS.map((id) => ({ id, articles: result.layout[id] ?? [] })),
      actor,
    );
    return redirectWithFlash(request, "/admin/homepage", SAVED);
  } catch (error) {
    if (error instanceof DomainError) {
      return failed(intent === "save" ? `${SAVE_FAILED}: ${error.message}` : error.message, error.status);
    }
    throw error;
  }
}

function parseKey(key: UniqueIdentifier | undefined | null) {
  const [kind, a, b, c] = String(key ?? "").split(":");
  if (kind === "article") return { kind, articleId: a } as const;
  if (kind === "item") return { kind, blockId: a, index: Number(b), articleId: c } as const;
  if (kind === "block") return { kind, blockId: a } as const;
  return null;
}

export default function HomepageEditor() {
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const fetcher = useFetcher<typeof action>();
  const blocks: BlockInfo[] = loaded.blocks;
  const [layout, setLayout] = useState<Layout>(loaded.layout);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(
    loaded.flash ? { ok: true, text: loaded.flash } : actionData ? resultMessage(actionData) : null,
  );
  const [activeId, setActiveId] = useState<string | null>(null);
  const hydrated = useHydrated();
  useEffect(() => setLayout(loaded.layout), [loaded.layout]);
  useEffect(() => {
    if (actionData) setMessage(resultMessage(actionData));
  }, [actionData]);
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data) setMessage(resultMessage(fetcher.data));
  }, [fetcher.state, fetcher.data]);
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), 3000);
    return () => clearTimeout(timer);
  }, [message]);

  const byId = useMemo(() => new Map(loaded.articles.map((a) => [a.id, a])), [loaded.articles]);
  const titleOf = (id: string) => byId.get(id)?.title ?? id;
  const blockName = (id: string) => blocks.find((b) => b.id === id)?.name ?? id;
  const saving = fetcher.state !== "idle";
  // The draft lives only in this page until «Зберегти»: ask before it is left (issue 17).
  const dirty = useMemo(() => JSON.stringify(layout) !== JSON.stringify(loaded.layout), [layout, loaded.layout]);
  useUnsavedChangesWarning(hydrated && dirty && !saving);

  function apply(op: LayoutOp): boolean {
    const result = applyLayoutOp(blocks, layout, op);
    if (!result.ok) {
      setMessage({ ok: false, text: result.reason });
      return false;
    }
    setLayout(result.layout);
    return true;
  }

  /** With JavaScript the per-article and per-block forms edit the local draft instead of posting. */
  function onOpSubmit(event: React.FormEvent<HTMLFormElement>) {
    if (!hydrated) return;
    event.preventDefault();
    const form = new FormData(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
    const intent = str(form.get("intent"));
    const blockId = str(form.get("blockId"));
    if (intent === "add") apply({ type: "add", blockId, articleId: str(form.get("articleId")) });
    else if (intent === "remove") apply({ type: "remove", blockId, index: int(form.get("index")) });
    else if (intent === "up" || intent === "down") {
      const index = int(form.get("index"));
      apply({ type: "move", blockId, from: index, to: intent === "up" ? index - 1 : index + 1 });
    }
  }

  function save() {
    const config = { blocks: blocks.map((b) => ({ id: b.id, name: b.name, maxArticles: b.maxArticles, articles: layout[b.id] ?? [] })) };
    fetcher.submit({ intent: "save", config: JSON.stringify(config) }, { method: "post" });
  }

  // The pointer drags through dnd-kit; the keyboard moves cards itself (keyboard-move.ts, issue 31).
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }));
  const keyboard = useKeyboardMove({ blocks, layout, setLayout, titleOf });
  const pickedAt = keyboard.picked?.at;

  const describe = (key: UniqueIdentifier | undefined | null) => {
    const parsed = parseKey(key);
    if (!parsed) return "";
    if (parsed.kind === "block") return `блок «${blockName(parsed.blockId)}»`;
    if (parsed.kind === "item") return `позицію ${parsed.index + 1} у блоці «${blockName(parsed.blockId)}»`;
    return `статтю «${titleOf(parsed.articleId)}»`;
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Узято ${describe(active.id)}.`,
    onDragOver: ({ over }) => (over ? `Над: ${describe(over.id)}.` : "Поза блоками."),
    onDragEnd: ({ active, over }) => (over ? `${describe(active.id)} відпущено на ${describe(over.id)}.` : "Відпущено поза блоками."),
    onDragCancel: () => "Перетягування скасовано.",
  };

  function onDragStart(event: DragStartEvent) {
    setActiveId(String(event.active.id));
  }

  function onDragEnd(event: DragEndEvent) {
    setActiveId(null);
    const from = parseKey(event.active.id);
    const to = parseKey(event.over?.id);
    if (!from || !to || to.kind === "article") return;
    const targetBlock = to.blockId;
    const targetIndex = to.kind === "item" ? to.index : undefined;
    if (from.kind === "article") {
      apply({ type: "add", blockId: targetBlock, articleId: from.articleId, index: targetIndex });
      return;
    }
    if (from.kind === "item") {
      if (from.blockId === targetBlock) {
        const last = (layout[targetBlock]?.length ?? 1) - 1;
        const dest = targetIndex ?? last;
        if (dest !== from.index) apply({ type: "move", blockId: targetBlock, from: from.index, to: dest });
        return;
      }
      // Onto another block: move it there when that block takes it.
      const added = applyLayoutOp(blocks, layout, { type: "add", blockId: targetBlock, articleId: from.articleId, index: targetIndex });
      if (!added.ok) {
        setMessage({ ok: false, text: added.reason });
        return;
      }
      const removed = applyLayoutOp(blocks, added.layout, { type: "remove", blockId: from.blockId, index: from.index });
      if (removed.ok) setLayout(removed.layout);
    }
  }

  const active = parseKey(activeId);

  return (
    <section className="admin-card homepage-editor" aria-labelledby="homepage-title">
      <div className="toolbar">
        <div>
          <h2 id="homepage-title">Редактор головної сторінки</h2>
          <p className="screen-subtitle">Перетягніть статті з лівого списку в блоки головної сторінки й натисніть «Зберегти».</p>
        </div>
        {hydrated ? (
          <button type="button" className="button button-primary" onClick={save} disabled={saving} aria-busy={saving}>
            {saving ? "Збереження..." : "Зберегти"}
          </button>
        ) : null}
      </div>
      <div className="homepage-message" aria-live="polite">
        {message ? (
          <p className={message.ok ? "flash flash-ok" : "form-error"} role={message.ok ? "status" : "alert"}>
            {message.text}
          </p>
        ) : null}
      </div>

      <p className="visually-hidden hp-live" aria-live="assertive" aria-atomic="true">
        {keyboard.announcement}
      </p>

      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragStart={onDragStart}
        onDragEnd={onDragEnd}
        onDragCancel={() => setActiveId(null)}
        accessibility={{
          announcements,
          screenReaderInstructions: {
            draggable:
              "Щоб узяти статтю, натисніть пробіл або Enter. Стрілки вгору й вниз переміщують її в блоці й між блоками, вліво й вправо — до попереднього чи наступного блоку; пробіл або Enter відпускає, Escape скасовує.",
          },
        }}
      >
        <div className="homepage-columns">
          <section className="homepage-articles" aria-labelledby="articles-title">
            <h3 id="articles-title">Опубліковані статті ({loaded.articles.length})</h3>
            <ul className="hp-article-list">
              {loaded.articles.map((article) => (
                <ArticleRow
                  key={article.id}
                  article={article}
                  blocks={blocks}
                  onSubmit={onOpSubmit}
                  onCardKeyDown={keyboard.onKeyDown}
                  picked={keyboard.picked?.articleId === article.id ? pickedAt === null : false}
                />
              ))}
            </ul>
            {loaded.articles.length === 0 ? <p className="muted">Немає опублікованих статей.</p> : null}
          </section>

          <section className="homepage-blocks" aria-labelledby="blocks-title">
            <h3 id="blocks-title" className="visually-hidden">
              Блоки головної сторінки
            </h3>
            {blocks.map((block) => (
              <BlockPanel
                key={block.id}
                block={block}
                ids={layout[block.id] ?? []}
                articles={loaded.articles}
                titleOf={titleOf}
                onSubmit={onOpSubmit}
                onCardKeyDown={keyboard.onKeyDown}
                pickedIndex={pickedAt?.blockId === block.id ? pickedAt.index : -1}
              />
            ))}
          </section>
        </div>
        <DragOverlay>{active ? <div className="hp-overlay">{titleOf(active.articleId ?? "")}</div> : null}</DragOverlay>
      </DndContext>

      <HelpPanel />
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
