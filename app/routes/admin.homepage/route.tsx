import {
  DndContext,
  DragOverlay,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type DragStartEvent,
  type UniqueIdentifier,
} from "@dnd-kit/core";
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useFetcher, useLoaderData } from "@remix-run/react";
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

interface Article {
  id: string;
  title: string;
  category: string | null;
  views: number;
}

const articleKey = (id: string) => `article:${id}`;
const itemKey = (blockId: string, index: number, id: string) => `item:${blockId}:${index}:${id}`;
const dropKey = (blockId: string) => `block:${blockId}`;

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

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

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

      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragStart={onDragStart}
        onDragEnd={onDragEnd}
        onDragCancel={() => setActiveId(null)}
        accessibility={{
          announcements,
          screenReaderInstructions: {
            draggable: "Щоб узяти статтю, натисніть пробіл або Enter. Стрілками перемістіть її на блок, пробілом або Enter відпустіть, Escape скасовує.",
          },
        }}
      >
        <div className="homepage-columns">
          <section className="homepage-articles" aria-labelledby="articles-title">
            <h3 id="articles-title">Опубліковані статті ({loaded.articles.length})</h3>
            <ul className="hp-article-list">
              {loaded.articles.map((article) => (
                <ArticleRow key={article.id} article={article} blocks={blocks} onSubmit={onOpSubmit} />
              ))}
            </ul>
            {loaded.articles.length === 0 ? <p className="muted">Немає опублікованих статей.</p> : null}
          </section>

          <section className="homepage-blocks" aria-labelledby="blocks-title">
            <h3 id="blocks-title" className="visually-hidden">
              Блоки головної сторінки
            </h3>
            {blocks.map((block) => (
              <BlockPanel key={block.id} block={block} ids={layout[block.id] ?? []} articles={loaded.articles} titleOf={titleOf} onSubmit={onOpSubmit} />
            ))}
          </section>
        </div>
        <DragOverlay>{active ? <div className="hp-overlay">{titleOf(active.articleId ?? "")}</div> : null}</DragOverlay>
      </DndContext>

      <aside className="info-panel hp-help" aria-labelledby="hp-help-title">
        <h3 id="hp-help-title">Як це працює</h3>
        <ul>
          <li>
            <strong>Головна історія</strong> — одна велика стаття вгорі сторінки.
          </li>
          <li>
            <strong>Останні наукові відкриття</strong> — до 3 статей основної стрічки.
          </li>
          <li>
            <strong>Стрічка новин</strong> — до 5 коротких новин у бічній колонці.
          </li>
          <li>
            <strong>Популярне</strong> — до 4 статей розділу трендів.
          </li>
          <li>
            <strong>Вибрані публікації</strong> — до 6 статей внизу сторінки.
          </li>
        </ul>
        <p className="muted small">
          Стаття потрапляє в блок, лише якщо в ньому є місце і її там ще немає; одна стаття може бути в кількох блоках. Порожні блоки на сайті заповнюються
          найновішими статтями. Клавіатура: Tab до статті, пробіл — узяти, стрілки — перемістити, пробіл — відпустити.
        </p>
      </aside>
    </section>
  );
}

function ArticleRow({ article, blocks, onSubmit }: { article: Article; blocks: BlockInfo[]; onSubmit: (e: React.FormEvent<HTMLFormElement>) => void }) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: articleKey(article.id) });
  return (
    <li className={`hp-article${isDragging ? " is-dragging" : ""}`}>
      <div ref={setNodeRef} className="hp-drag" {...listeners} {...attributes} aria-label={`Перетягнути: ${article.title}`}>
        <span className="hp-handle" aria-hidden="true">
          ⠿
        </span>
        <span className="hp-title">{article.title}</span>
        <span className="muted small">
          {article.category ?? "Без категорії"} · переглядів: {article.views}
        </span>
      </div>
      <Form method="post" className="hp-add" onSubmit={onSubmit}>
        <input type="hidden" name="intent" value="add" />
        <input type="hidden" name="articleId" value={article.id} />
        <label className="visually-hidden" htmlFor={`add-${article.id}`}>
          Блок для «{article.title}»
        </label>
        <select id={`add-${article.id}`} name="blockId">
          {blocks.map((b) => (
            <option key={b.id} value={b.id}>
              {b.name}
            </option>
          ))}
        </select>
        <button type="submit" className="button button-secondary button-small" aria-label={`Додати в блок: ${article.title}`}>
          Додати в блок
        </button>
      </Form>
    </li>
  );
}

function BlockPanel({
  block,
  ids,
  articles,
  titleOf,
  onSubmit,
}: {
  block: BlockInfo;
  ids: string[];
  articles: Article[];
  titleOf: (id: string) => string;
  onSubmit: (e: React.FormEvent<HTMLFormElement>) => void;
}) {
  const { setNodeRef, isOver } = useDroppable({ id: dropKey(block.id) });
  const keys = ids.map((id, index) => itemKey(block.id, index, id));
  const full = ids.length >= block.maxArticles;
  return (
    <section ref={setNodeRef} className={`hp-block${isOver ? " is-over" : ""}`} aria-labelledby={`block-${block.id}`} data-block={block.id}>
      <header className="hp-block-head">
        <h4 id={`block-${block.id}`}>{block.name}</h4>
        <span className={`hp-count${full ? " is-full" : ""}`} aria-label={`${ids.length} з ${block.maxArticles}`}>
          {ids.length}/{block.maxArticles}
        </span>
      </header>
      <SortableContext items={keys} strategy={verticalListSortingStrategy}>
        <ol className="hp-block-list">
          {ids.map((id, index) => (
            <BlockItem key={keys[index]} sortId={keys[index]} blockId={block.id} index={index} count={ids.length} title={titleOf(id)} onSubmit={onSubmit} />
          ))}
        </ol>
      </SortableContext>
      {ids.length === 0 ? <p className="muted small hp-empty">Перетягніть сюди статтю</p> : null}
      {!full ? (
        <Form method="post" className="hp-add" onSubmit={onSubmit}>
          <input type="hidden" name="intent" value="add" />
          <input type="hidden" name="blockId" value={block.id} />
          <label className="visually-hidden" htmlFor={`block-add-${block.id}`}>
            Стаття для блоку «{block.name}»
          </label>
          <select id={`block-add-${block.id}`} name="articleId">
            {articles.map((a) => (
              <option key={a.id} value={a.id}>
                {a.title}
              </option>
            ))}
          </select>
          <button type="submit" className="button button-secondary button-small" aria-label={`Додати статтю в блок: ${block.name}`}>
            Додати статтю
          </button>
        </Form>
      ) : null}
    </section>
  );
}

function BlockItem({
  sortId,
  blockId,
  index,
  count,
  title,
  onSubmit,
}: {
  sortId: string;
  blockId: string;
  index: number;
  count: number;
  title: string;
  onSubmit: (e: React.FormEvent<HTMLFormElement>) => void;
}) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: sortId });
  const style = { transform: CSS.Transform.toString(transform), transition };
  return (
    <li ref={setNodeRef} style={style} className={`hp-item${isDragging ? " is-dragging" : ""}`}>
      <span className="hp-drag hp-item-title" {...listeners} {...attributes} aria-label={`${index + 1}. ${title} — перетягнути`}>
        <span className="hp-num">{index + 1}.</span> {title}
      </span>
      <Form method="post" className="hp-item-actions" onSubmit={onSubmit}>
        <input type="hidden" name="blockId" value={blockId} />
        <input type="hidden" name="index" value={index} />
        {index > 0 ? (
          <button type="submit" name="intent" value="up" className="button button-secondary button-small" aria-label={`Вище: ${title}`}>
            ↑
          </button>
        ) : null}
        {index < count - 1 ? (
          <button type="submit" name="intent" value="down" className="button button-secondary button-small" aria-label={`Нижче: ${title}`}>
            ↓
          </button>
        ) : null}
        <button type="submit" name="intent" value="remove" className="button button-danger button-small" aria-label={`Видалити з блоку: ${title}`}>
          ×
        </button>
      </Form>
    </li>
  );
}

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
