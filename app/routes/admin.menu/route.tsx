import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { AdminHandle } from "~/components/admin/nav";
import { Field } from "~/components/ui/field";
import { asInput, getMenus, listCategoryChoices, listPageChoices, MenuItemInputSchema, saveMenus, type MenuItemInput } from "~/models/menu.server";
import { SocialSettingsSchema } from "~/models/settings.server";
import { requireRole } from "~/services/auth.server";
import { redirectWithFlash, takeFlash } from "~/services/flash.server";
import { DomainError } from "~/utils/errors";
import { formFailureOf } from "~/utils/forms";
import { domainErrorFields, formFailure, formValues, parseForm } from "~/utils/forms.server";
import { formIntent, UNKNOWN_INTENT } from "~/utils/intent";
import { MENU_NAMES, MENUS, SOCIAL_NETWORKS } from "~/utils/menus";
import { SCREEN_ROLES } from "~/utils/roles";
import { ItemFields, MenuList } from "./menu-list";

// The menus (issue 31 item 5, DESIGN §17): the header menu and the footer quick links (label and
// target; add, change, remove, ↑/↓, and with JavaScript drag or keyboard), the categories not yet
// in the header (offered, never added by themselves), and the social links. Every change is a plain
// form post applied to the stored menu at once, so the screen works the same without JavaScript;
// all of them go through saveMenus, the model function of PUT /api/menu. Admins and editors.

const TITLE = "Меню";
export const handle: AdminHandle = { title: TITLE };
export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

const INTENTS = ["add", "update", "remove", "up", "down", "reorder", "add-category", "social"] as const;
const STALE = "Меню тим часом змінилося: оновіть сторінку й спробуйте ще раз";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, SCREEN_ROLES["/admin/menu"]);
  const [menus, categories, pages, { flash, headers }] = await Promise.all([getMenus(), listCategoryChoices(), listPageChoices(), takeFlash(request)]);
  const editId = new URL(request.url).searchParams.get("edit");
  return data({ menus, categories, pages, editId, flash }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireRole(request, SCREEN_ROLES["/admin/menu"]);
  const form = await request.formData();
  const intent = formIntent(form, INTENTS);
  const values = formValues(form);
  const menu = formIntent(form, MENUS, "menu");
  const id = String(form.get("id") ?? "");
  const fail = (failure: Parameters<typeof formFailure>[0], status: number) => formFailure({ values, ...failure }, status, { intent, menu, id });
  if (!intent) return fail({ formError: UNKNOWN_INTENT }, 400);
  const done = (message: string) => redirectWithFlash(request, "/admin/menu", message);
  try {
    if (intent === "social") {
      const parsed = parseForm(SocialSettingsSchema, form);
      if (!parsed.ok) return fail(parsed, 422);
      await saveMenus({ actor, input: { social: parsed.data } });
      return done("Соціальні мережі збережено");
    }
    const current = await getMenus();
    if (intent === "add-category") {
      const category = current.offered_categories.find((c) => c.id === String(form.get("category_id") ?? ""));
      if (!category) return fail({ formError: "Цієї рубрики немає або вона вже в меню" }, 422);
      const items = [...current.header.map(asInput), { id: null, label: null, kind: "category" as const, category_id: category.id, page_id: null, url: null }];
      await saveMenus({ actor, input: { header: items } });
      return done(`Рубрику «${category.name}» додано в головне меню`);
    }
    if (!menu) return fail({ formError: "Невідоме меню" }, 400);
    const items: MenuItemInput[] = current[menu].map(asInput);
    const index = items.findIndex((i) => i.id === id);
    if (intent === "add" || intent === "update") {
      const parsed = parseForm(MenuItemInputSchema, form);
      if (!parsed.ok) return fail(parsed, 422);
      if (intent === "add") items.push({ ...parsed.data, id: null });
      else if (index < 0) return fail({ formError: STALE }, 404);
      else items[index] = { ...parsed.data, id };
      await saveMenus({ actor, input: { [menu]: items } });
      return done(intent === "add" ? `Пункт додано: ${MENU_NAMES[menu]}` : `Пункт змінено: ${MENU_NAMES[menu]}`);
    }
    if (intent === "reorder") {
      const order = String(form.get("order") ?? "").split(",");
      const byId = new Map(items.map((i) => [i.id, i]));
      if (order.length !== items.length || new Set(order).size !== order.length || !order.every((o) => byId.has(o))) return fail({ formError: STALE }, 409);
      await saveMenus({ actor, input: { [menu]: order.map((o) => byId.get(o)!) } });
      return done(`Порядок збережено: ${MENU_NAMES[menu]}`);
    }
    if (index < 0) return fail({ formError: STALE }, 404);
    if (intent === "remove") items.splice(index, 1);
    else {
      const to = intent === "up" ? index - 1 : index + 1;
      if (to < 0 || to >= items.length) return fail({ formError: "Далі пересунути не можна" }, 422);
      [items[index], items[to]] = [items[to], items[index]];
    }
    await saveMenus({ actor, input: { [menu]: items } });
    return done(intent === "remove" ? `Пункт прибрано: ${MENU_NAMES[menu]}` : `Порядок збережено: ${MENU_NAMES[menu]}`);
  } catch (error) {
    if (error instanceof DomainError) {
      // A field of saveMenus names its place in the list (`header.3.url`): the form has `url`.
      const field = error.field?.split(".").pop();
      return fail(domainErrorFields(new DomainError(error.status, error.message, field === "id" ? undefined : field)), error.status);
    }
    throw error;
  }
}

export default function MenuScreen() {
  const { menus, categories, pages, editId, flash } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = formFailureOf(result);
  const busy = useNavigation().state === "submitting";
  const failed = (intent: string, menu?: string) => (failure && result?.intent === intent && (!menu || result?.menu === menu) ? failure : undefined);
  const generalError = failure?.formError && !["social"].includes(String(result?.intent)) ? failure.formError : undefined;
  const social = failed("social");
  return (
    <section className="admin-card menu-editor" aria-labelledby="menu-title">
      <div className="toolbar">
        <div>
          <h2 id="menu-title">{TITLE}</h2>
          <p className="screen-subtitle">
            Головне меню й швидкі посилання у футері: підпис, куди веде посилання, порядок (кнопками ↑/↓, перетягуванням або з клавіатури).
          </p>
        </div>
      </div>
      {flash ? (
        <p className="flash flash-ok" role="status">
          {flash}
        </p>
      ) : null}
      {generalError ? (
        <p className="form-error" role="alert">
          {generalError}
        </p>
      ) : null}

      {menus.offered_categories.length ? (
        <div className="info-panel menu-offered" role="note" aria-labelledby="menu-offered-title">
          <p id="menu-offered-title">
            <strong>Нові рубрики, яких немає в меню:</strong> {menus.offered_categories.map((c) => c.name).join(", ")}
          </p>
          <ul className="menu-offered-list">
            {menus.offered_categories.map((c) => (
              <li key={c.id}>
                <Form method="post">
                  <input type="hidden" name="category_id" value={c.id} />
                  <button type="submit" name="intent" value="add-category" className="button button-secondary button-small">
                    Додати «{c.name}» у меню
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      {MENUS.map((menu) => {
        const add = failed("add", menu);
        return (
          <section key={menu} className="menu-section" aria-labelledby={`menu-${menu}-title`}>
            <h3 id={`menu-${menu}-title`}>{MENU_NAMES[menu]}</h3>
            <MenuList menu={menu} items={menus[menu]} categories={categories} pages={pages} editId={editId} editFailure={failed("update", menu)} busy={busy} />
            <details className="menu-add" open={Boolean(add)}>
              <summary>Додати пункт: {MENU_NAMES[menu]}</summary>
              {/* A new key once an item is added: with JavaScript the page is not reloaded, and the form starts empty again. */}
              <Form method="post" className="form menu-item-form" key={menus[menu].map((i) => i.id).join(",")}>
                <input type="hidden" name="menu" value={menu} />
                <ItemFields prefix={`${menu}-add`} categories={categories} pages={pages} values={add?.values} errors={add?.errors} />
                <button type="submit" name="intent" value="add" className="button button-primary" disabled={busy}>
                  Додати
                </button>
              </Form>
            </details>
          </section>
        );
      })}

      <section className="menu-section" aria-labelledby="menu-social-title">
        <h3 id="menu-social-title">Соціальні мережі</h3>
        <p className="muted">Посилання у футері. Порожнє поле — мережу не показано.</p>
        {social?.formError ? (
          <p className="form-error" role="alert">
            {social.formError}
          </p>
        ) : null}
        <Form method="post" className="form menu-item-form">
          {SOCIAL_NETWORKS.map((n) => (
            <Field
              key={n.key}
              label={n.name}
              name={n.key}
              id={`social-${n.key}`}
              inputMode="url"
              placeholder="https://"
              maxLength={300}
              defaultValue={social?.values[n.key] ?? menus.social[n.key]}
              error={social?.errors[n.key]}
            />
          ))}
          <button type="submit" name="intent" value="social" className="button button-primary" disabled={busy}>
            Зберегти соціальні мережі
          </button>
        </Form>
      </section>
    </section>
  );
}

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
