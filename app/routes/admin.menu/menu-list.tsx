import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent } from "@dnd-kit/core";
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { Form, Link, useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { Field } from "~/components/ui/field";
import type { MenuItemView } from "~/models/menu.server";
import type { FieldErrors, FormValues } from "~/utils/forms";

// One menu's list on /admin/menu (route.tsx): each link with ↑/↓, change and remove (plain form
// posts), and with JavaScript a handle that drags with the pointer or moves with the keyboard
// (dnd-kit's sortable keyboard: Space or Enter takes, ↑/↓ move, Space drops, Escape cancels); a
// drop saves the new order at once (intent "reorder").

/** A link as the loader sends it (the model's view; which menu and where are the list's own). */
type Item = Omit<MenuItemView, "menu" | "position">;
interface Choice {
  id: string;
  name: string;
}
interface PageChoice {
  id: string;
  title: string;
  status: string;
}
interface Failure {
  values: FormValues;
  errors: FieldErrors;
  formError?: string;
}

const KIND_LABELS = { home: "Головна сторінка", category: "Рубрика", page: "Сторінка", url: "Адреса https" } as const;

function targetText(item: Item): string {
  if (item.kind === "home") return "Головна сторінка (/)";
  if (item.kind === "category") return `Рубрика: ${item.href}`;
  if (item.kind === "page") return `Сторінка: ${item.href}${item.visible ? "" : " — чернетка, на сайті не показано"}`;
  return `Адреса: ${item.url}`;
}

/** The label and target fields of one link (the add form and the change form). */
export function ItemFields({
  prefix,
  categories,
  pages,
  item,
  values,
  errors = {},
}: {
  prefix: string;
  categories: Choice[];
  pages: PageChoice[];
  item?: Item;
  values?: FormValues;
  errors?: FieldErrors;
}) {
  const v = (name: "label" | "kind" | "category_id" | "page_id" | "url") => values?.[name] ?? (item ? String(item[name] ?? "") : "");
  const [kind, setKind] = useState(v("kind") || "category");
  // Without JavaScript every target field shows (the chosen kind says which one counts); with it,
  // only the one the kind needs.
  const hydrated = useHydrated();
  return (
    <>
      <Field
        label="Підпис"
        name="label"
        id={`${prefix}-label`}
        maxLength={60}
        defaultValue={v("label")}
        error={errors.label}
        hint="Порожньо — назва рубрики чи сторінки"
      />
      <Field as="select" label="Куди веде" name="kind" id={`${prefix}-kind`} value={kind} onChange={(e) => setKind(e.target.value)} error={errors.kind}>
        {Object.entries(KIND_LABELS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </Field>
      <div className="menu-targets" data-kind={hydrated ? kind : undefined}>
        <Field as="select" label="Рубрика" name="category_id" id={`${prefix}-category`} defaultValue={v("category_id")} error={errors.category_id}>
          <option value="">—</option>
          {categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </Field>
        <Field as="select" label="Сторінка" name="page_id" id={`${prefix}-page`} defaultValue={v("page_id")} error={errors.page_id}>
          <option value="">—</option>
          {pages.map((p) => (
            <option key={p.id} value={p.id}>
              {p.title}
              {p.status === "published" ? "" : " (чернетка)"}
            </option>
          ))}
        </Field>
        <Field
          label="Адреса"
          name="url"
          id={`${prefix}-url`}
          inputMode="url"
          placeholder="https://"
          maxLength={500}
          defaultValue={v("url")}
          error={errors.url}
        />
      </div>
    </>
  );
}

export function MenuList({
  menu,
  items: loaded,
  categories,
  pages,
  editId,
  editFailure,
  busy,
}: {
  menu: "header" | "footer";
  items: Item[];
  categories: Choice[];
  pages: PageChoice[];
  editId: string | null;
  editFailure?: Failure;
  busy: boolean;
}) {
  const hydrated = useHydrated();
  const fetcher = useFetcher();
  const [items, setItems] = useState(loaded);
  useEffect(() => setItems(loaded), [loaded]);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const titleOf = (id: unknown) => items.find((i) => i.id === id)?.title ?? "";
  const placeOf = (id: unknown) => items.findIndex((i) => i.id === id) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Узято «${titleOf(active.id)}», позиція ${placeOf(active.id)} з ${items.length}.`,
    onDragOver: ({ active, over }) => (over ? `«${titleOf(active.id)}»: позиція ${placeOf(over.id)} з ${items.length}.` : "Поза списком."),
    onDragEnd: ({ active, over }) =>
      over ? `«${titleOf(active.id)}» відпущено на позицію ${placeOf(over.id)}. Порядок збережено.` : "Відпущено поза списком.",
    onDragCancel: ({ active }) => `Переміщення «${titleOf(active.id)}» скасовано.`,
  };

  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    const next = arrayMove(
      items,
      items.findIndex((i) => i.id === active.id),
      items.findIndex((i) => i.id === over.id),
    );
    setItems(next);
    fetcher.submit({ intent: "reorder", menu, order: next.map((i) => i.id).join(",") }, { method: "post" });
  }

  if (!items.length) return <p className="muted">Порожньо: додайте перший пункт.</p>;
  const list = (
    <ol className="menu-items" aria-label={menu === "header" ? "Пункти головного меню" : "Пункти швидких посилань"}>
      {items.map((item, index) => (
        <MenuRow
          key={item.id}
          menu={menu}
          item={item}
          index={index}
          count={items.length}
          draggable={hydrated}
          editing={editId === item.id}
          editFailure={editId === item.id ? editFailure : undefined}
          categories={categories}
          pages={pages}
          busy={busy || fetcher.state !== "idle"}
        />
      ))}
    </ol>
  );
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable: "Щоб пересунути пункт, натисніть пробіл або Enter, стрілками вгору й вниз оберіть місце, пробілом або Enter відпустіть; Escape скасовує.",
        },
      }}
    >
      <SortableContext items={items.map((i) => i.id)} strategy={verticalListSortingStrategy}>
        {list}
      </SortableContext>
    </DndContext>
  );
}

function MenuRow({
  menu,
  item,
  index,
  count,
  draggable,
  editing,
  editFailure,
  categories,
  pages,
  busy,
}: {
  menu: "header" | "footer";
  item: Item;
  index: number;
  count: number;
  draggable: boolean;
  editing: boolean;
  editFailure?: Failure;
  categories: Choice[];
  pages: PageChoice[];
  busy: boolean;
}) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: item.id });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={`menu-item${item.visible ? "" : " menu-item-hidden"}${isDragging ? " is-dragging" : ""}`}
    >
      <div className="menu-item-row">
        {draggable ? (
          <span className="menu-drag" {...attributes} {...listeners} aria-label={`${index + 1} з ${count}. ${item.title} — перетягнути`}>
            ⠿
          </span>
        ) : null}
        <span className="menu-item-text">
          <span className="menu-item-title">{item.title}</span> <span className="muted small">{targetText(item)}</span>
        </span>
        <Form method="post" className="row-actions">
          <input type="hidden" name="menu" value={menu} />
          <input type="hidden" name="id" value={item.id} />
          <button
            type="submit"
            name="intent"
            value="up"
            className="button button-secondary button-small"
            aria-label={`Вище: ${item.title}`}
            disabled={busy || index === 0}
          >
            ↑
          </button>
          <button
            type="submit"
            name="intent"
            value="down"
            className="button button-secondary button-small"
            aria-label={`Нижче: ${item.title}`}
            disabled={busy || index === count - 1}
          >
            ↓
          </button>
          <Link to={`?edit=${item.id}`} className="button button-secondary button-small" aria-label={`Змінити: ${item.title}`}>
            Змінити
          </Link>
          <button
            type="submit"
            name="intent"
            value="remove"
            className="button button-danger button-small"
            aria-label={`Прибрати: ${item.title}`}
            disabled={busy}
          >
            Прибрати
          </button>
        </Form>
      </div>
      {editing ? (
        <Form method="post" className="form menu-item-form" aria-label={`Зміна пункту: ${item.title}`}>
          <input type="hidden" name="menu" value={menu} />
          <input type="hidden" name="id" value={item.id} />
          <ItemFields prefix={`edit-${item.id}`} categories={categories} pages={pages} item={item} values={editFailure?.values} errors={editFailure?.errors} />
          {editFailure?.formError ? (
            <p className="form-error" role="alert">
              {editFailure.formError}
            </p>
          ) : null}
          <div className="row-actions">
            <button type="submit" name="intent" value="update" className="button button-primary" disabled={busy}>
              Зберегти пункт
            </button>
            <Link to="/admin/menu" className="button button-secondary">
              Скасувати
            </Link>
          </div>
        </Form>
      ) : null}
    </li>
  );
}
