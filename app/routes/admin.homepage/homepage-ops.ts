// Editing operations on a homepage layout, shared by the editor in the browser (local draft) and
// its form actions without JavaScript (applied to the saved layout). SPEC §5 'Homepage blocks'.

export interface BlockInfo {
  id: string;
  name: string;
  maxArticles: number;
}

export type Layout = Record<string, string[]>;

export type LayoutOp =
  | { type: "add"; blockId: string; articleId: string; index?: number }
  | { type: "remove"; blockId: string; index: number }
  | { type: "move"; blockId: string; from: number; to: number };

export type OpResult = { ok: true; layout: Layout } | { ok: false; reason: string };

export function applyLayoutOp(blocks: readonly BlockInfo[], layout: Layout, op: LayoutOp): OpResult {
  const block = blocks.find((b) => b.id === op.blockId);
  if (!block) return { ok: false, reason: "Невідомий блок" };
  const list = [...(layout[block.id] ?? [])];
  if (op.type === "add") {
    if (list.includes(op.articleId)) return { ok: false, reason: `Стаття вже є в блоці «${block.name}»` };
    if (list.length >= block.maxArticles) {
      return { ok: false, reason: `Блок «${block.name}» заповнено (${list.length}/${block.maxArticles})` };
    }
    const at = op.index === undefined ? list.length : Math.max(0, Math.min(op.index, list.length));
    list.splice(at, 0, op.articleId);
  } else if (op.type === "remove") {
    if (op.index < 0 || op.index >= list.length) return { ok: false, reason: "Статті немає в блоці" };
    list.splice(op.index, 1);
  } else {
    if (op.from < 0 || op.from >= list.length || op.to < 0 || op.to >= list.length) return { ok: false, reason: "Неможливо перемістити" };
    const [item] = list.splice(op.from, 1);
    list.splice(op.to, 0, item);
  }
  return { ok: true, layout: { ...layout, [block.id]: list } };
}
