import { useDraggable, useDroppable } from "@dnd-kit/core";
import { SortableContext, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { Form } from "@remix-run/react";
import type { KeyboardEvent } from "react";
import type { BlockInfo } from "./homepage-ops";
import { articleFocusKey, itemFocusKey } from "./keyboard-move";

// The homepage editor's parts (route.tsx): the article list's rows, the blocks and their items,
// the help. Each card's handle takes the pointer (dnd-kit) and the keyboard (keyboard-move.ts).

export interface Article {
  id: string;
  title: string;
  category: string | null;
  views: number;
}

type CardKeyDown = (event: KeyboardEvent<HTMLElement>, articleId: string, at: { blockId: string; index: number } | null) => void;
type OpSubmit = (e: React.FormEvent<HTMLFormElement>) => void;

export const articleKey = (id: string) => `article:${id}`;
export const itemKey = (blockId: string, index: number, id: string) => `item:${blockId}:${index}:${id}`;
export const dropKey = (blockId: string) => `block:${blockId}`;

export function HelpPanel() {
  return (
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
        найновішими статтями. Клавіатура: Tab до статті, пробіл або Enter — узяти, стрілки вгору й вниз — перемістити в блоці та між блоками, вліво й вправо —
        до попереднього чи наступного блоку, пробіл або Enter — відпустити, Escape — скасувати.
      </p>
    </aside>
  );
}

export function ArticleRow({
  article,
  blocks,
  onSubmit,
  onCardKeyDown,
  picked,
}: {
  article: Article;
  blocks: BlockInfo[];
  onSubmit: OpSubmit;
  onCardKeyDown: CardKeyDown;
  picked: boolean;
}) {
  const { attributes, listeners, setNodeRef, isDragging } = useDraggable({ id: articleKey(article.id) });
  return (
    <li className={`hp-article${isDragging || picked ? " is-dragging" : ""}`}>
      <div
        ref={setNodeRef}
        className="hp-drag"
        {...listeners}
        {...attributes}
        role="button"
        tabIndex={0}
        aria-pressed={picked}
        data-hp-key={articleFocusKey(article.id)}
        onKeyDown={(event) => onCardKeyDown(event, article.id, null)}
        aria-label={`Перетягнути: ${article.title}`}
      >
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

export function BlockPanel({
  block,
  ids,
  articles,
  titleOf,
  onSubmit,
  onCardKeyDown,
  pickedIndex,
}: {
  block: BlockInfo;
  ids: string[];
  articles: Article[];
  titleOf: (id: string) => string;
  onSubmit: OpSubmit;
  onCardKeyDown: CardKeyDown;
  /** The index of the card picked up by keyboard in this block, or -1. */
  pickedIndex: number;
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
            <BlockItem
              key={keys[index]}
              sortId={keys[index]}
              blockId={block.id}
              index={index}
              count={ids.length}
              title={titleOf(id)}
              onSubmit={onSubmit}
              onKeyDown={(event) => onCardKeyDown(event, id, { blockId: block.id, index })}
              picked={index === pickedIndex}
            />
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
  onKeyDown,
  picked,
}: {
  sortId: string;
  blockId: string;
  index: number;
  count: number;
  title: string;
  onSubmit: OpSubmit;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  picked: boolean;
}) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: sortId });
  const style = { transform: CSS.Transform.toString(transform), transition };
  return (
    <li ref={setNodeRef} style={style} className={`hp-item${isDragging || picked ? " is-dragging" : ""}`}>
      <span
        className="hp-drag hp-item-title"
        {...listeners}
        {...attributes}
        role="button"
        tabIndex={0}
        aria-pressed={picked}
        data-hp-key={itemFocusKey(blockId, index)}
        onKeyDown={onKeyDown}
        aria-label={`${index + 1}. ${title} — перетягнути`}
      >
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
