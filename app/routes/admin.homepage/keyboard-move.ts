import { useEffect, useState, type KeyboardEvent } from "react";
import { applyLayoutOp, type BlockInfo, type Layout } from "./homepage-ops";

// Issue 31 item 3: moving a card by keyboard in the homepage editor (WCAG 2.1.1, 2.5.7 keeps the
// "Додати в блок" forms as the non-drag way). Space or Enter picks a card up; ↑/↓ move it within
// its block and on into the block above or below at its ends; ←/→ move it to the previous or next
// block; Space or Enter drops it; Escape puts everything back. A card from the article list enters
// the first block (in the direction pressed) that has room. Each step is announced in Ukrainian in
// a live region. A block that is truly full (or already holds the article) is skipped, and that
// is said; nothing else ever answers "заповнено". The layout changes at once (the draft, saved by
// «Зберегти» as any other change).

/** Where the picked card is now: `at` is null while a card from the article list is not yet in a block. */
export interface Picked {
  articleId: string;
  at: { blockId: string; index: number } | null;
  /** Where it was picked up (Escape puts it back and focuses it there). */
  from: { blockId: string; index: number } | null;
  snapshot: Layout;
}

/** The element to focus after a move: a block item (`blockId:index`) or an article of the list (`article:id`). */
export const itemFocusKey = (blockId: string, index: number) => `${blockId}:${index}`;
export const articleFocusKey = (articleId: string) => `article:${articleId}`;

const PICK_HELP =
  "Стрілки вгору й вниз — у блоці й до сусіднього блоку, вліво й вправо — до попереднього чи наступного блоку; пробіл або Enter — відпустити, Escape — скасувати.";

export function useKeyboardMove({
  blocks,
  layout,
  setLayout,
  titleOf,
}: {
  blocks: BlockInfo[];
  layout: Layout;
  setLayout: (layout: Layout) => void;
  titleOf: (id: string) => string;
}) {
  const [picked, setPicked] = useState<Picked | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const [focus, setFocus] = useState<{ key: string; tick: number } | null>(null);

  useEffect(() => {
    if (focus) document.querySelector<HTMLElement>(`[data-hp-key="${CSS.escape(focus.key)}"]`)?.focus();
  }, [focus]);

  const nameOf = (blockId: string) => blocks.find((b) => b.id === blockId)?.name ?? blockId;
  const where = (blockId: string, index: number, length: number) => `позиція ${index + 1} з ${length} у блоці «${nameOf(blockId)}»`;
  const focusOn = (key: string) => setFocus((f) => ({ key, tick: (f?.tick ?? 0) + 1 }));

  /**
   * Puts the picked card (already taken out of `base`) into the first block from `start`, going
   * `step`, that takes it; blocks that are full or already hold it are skipped, and that is said.
   * When none takes it, the layout stays `unchanged` (the card does not move).
   */
  function placeFrom(current: Picked, base: Layout, unchanged: Layout, start: number, step: 1 | -1, position: "start" | "end" | number) {
    const skipped: string[] = [];
    for (let i = start; i >= 0 && i < blocks.length; i += step) {
      const block = blocks[i];
      const length = base[block.id]?.length ?? 0;
      const index = position === "start" ? 0 : position === "end" ? length : Math.min(position, length);
      const added = applyLayoutOp(blocks, base, { type: "add", blockId: block.id, articleId: current.articleId, index });
      if (!added.ok) {
        skipped.push(added.reason);
        continue;
      }
      setLayout(added.layout);
      setPicked({ ...current, at: { blockId: block.id, index } });
      focusOn(itemFocusKey(block.id, index));
      const note = skipped.length ? `${skipped.join(". ")}: пропущено. ` : "";
      setAnnouncement(`${note}«${titleOf(current.articleId)}»: ${where(block.id, index, length + 1)}.`);
      return;
    }
    setLayout(unchanged);
    setAnnouncement(`${skipped.length ? `${skipped.join(". ")}. ` : ""}Далі блоків немає: «${titleOf(current.articleId)}» лишається на місці.`);
  }

  function move(current: Picked, key: string) {
    const up = key === "ArrowUp" || key === "ArrowLeft";
    if (!current.at) {
      // From the article list: into the first block with room, from the top (or the bottom with ↑/←).
      placeFrom(current, layout, layout, up ? blocks.length - 1 : 0, up ? -1 : 1, "end");
      return;
    }
    const { blockId, index } = current.at;
    const list = layout[blockId] ?? [];
    const within = key === "ArrowUp" ? index - 1 : key === "ArrowDown" ? index + 1 : -1;
    if (within >= 0 && within < list.length) {
      const moved = applyLayoutOp(blocks, layout, { type: "move", blockId, from: index, to: within });
      if (!moved.ok) return;
      setLayout(moved.layout);
      setPicked({ ...current, at: { blockId, index: within } });
      focusOn(itemFocusKey(blockId, within));
      setAnnouncement(`«${titleOf(current.articleId)}»: ${where(blockId, within, list.length)}.`);
      return;
    }
    // Out of this block (↑ at its top, ↓ at its bottom, ← or →): into the neighbour that takes it.
    const removed = applyLayoutOp(blocks, layout, { type: "remove", blockId, index });
    if (!removed.ok) return;
    const here = blocks.findIndex((b) => b.id === blockId);
    const position = key === "ArrowUp" ? "end" : key === "ArrowDown" ? "start" : index;
    placeFrom(current, removed.layout, layout, here + (up ? -1 : 1), up ? -1 : 1, position);
  }

  function drop(current: Picked) {
    setPicked(null);
    if (!current.at) {
      setAnnouncement(`«${titleOf(current.articleId)}» не додано в жоден блок.`);
      return;
    }
    const { blockId, index } = current.at;
    setAnnouncement(`«${titleOf(current.articleId)}» відпущено: ${where(blockId, index, layout[blockId]?.length ?? 0)}. Щоб зберегти, натисніть «Зберегти».`);
  }

  function cancel(current: Picked) {
    setPicked(null);
    setLayout(current.snapshot);
    setAnnouncement(`Переміщення «${titleOf(current.articleId)}» скасовано.`);
    focusOn(current.from ? itemFocusKey(current.from.blockId, current.from.index) : articleFocusKey(current.articleId));
  }

  /** The keydown handler of a card: `at` is its place in a block, or null for the article list. */
  function onKeyDown(event: KeyboardEvent<HTMLElement>, articleId: string, at: { blockId: string; index: number } | null) {
    const key = event.key;
    const isPick = key === " " || key === "Enter";
    if (!picked) {
      if (!isPick) return;
      event.preventDefault();
      setPicked({ articleId, at, from: at, snapshot: layout });
      const place = at ? where(at.blockId, at.index, layout[at.blockId]?.length ?? 0) : "список статей";
      setAnnouncement(`Узято «${titleOf(articleId)}», ${place}. ${PICK_HELP}`);
      return;
    }
    if (isPick) {
      event.preventDefault();
      drop(picked);
    } else if (key === "Escape") {
      event.preventDefault();
      cancel(picked);
    } else if (key === "ArrowUp" || key === "ArrowDown" || key === "ArrowLeft" || key === "ArrowRight") {
      event.preventDefault();
      move(picked, key);
    }
  }

  return { picked, announcement, onKeyDown };
}
