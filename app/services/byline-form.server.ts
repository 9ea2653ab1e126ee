import { BylinesSchema, type BylineRef } from "../utils/bylines";

// The editor form's byline fields (issue 29; the panel is app/components/newsroom/byline-picker.tsx):
// each chosen author is a checked `byline` (`staff:<id>` or `guest:<id>`) with `byline_order_<value>`,
// its place (1 first; a missing or bad number goes last, in the form's order). `noindex` is a checkbox.
// Fields the form does not carry (no panel) leave the article's bylines and switch as they are.

/** The chosen authors in their posted order, as `kind:id` keys. */
function chosenKeys(form: FormData): string[] {
  return form
    .getAll("byline")
    .filter((v): v is string => typeof v === "string")
    .map((value, i) => {
      const raw = form.get(`byline_order_${value}`);
      const n = typeof raw === "string" && /^\d{1,2}$/.test(raw.trim()) ? Number(raw) : 1000;
      return { value, order: n, i };
    })
    .sort((a, b) => a.order - b.order || a.i - b.i)
    .map((c) => c.value);
}

/** What the form posted, shown again when the page answers the post (a refused save, a preview without JavaScript). */
export function postedBylines(form: FormData): { selected: string[]; noindex: boolean } | undefined {
  if (form.get("bylines_form") !== "1") return undefined;
  return { selected: chosenKeys(form), noindex: form.get("noindex") === "on" };
}

export function parseBylineForm(form: FormData): { ok: true; data: { authors?: BylineRef[]; noindex?: boolean } } | { ok: false; errors: { authors: string } } {
  const data: { authors?: BylineRef[]; noindex?: boolean } = {};
  if (form.get("noindex_form") === "1") data.noindex = form.get("noindex") === "on";
  if (form.get("bylines_form") !== "1") return { ok: true, data };
  const chosen = chosenKeys(form).map((value) => {
    const at = value.indexOf(":");
    return { kind: value.slice(0, at), id: value.slice(at + 1) };
  });
  const parsed = BylinesSchema.safeParse(chosen);
  if (!parsed.success) return { ok: false, errors: { authors: parsed.error.issues[0]?.message ?? "Некоректні автори" } };
  data.authors = parsed.data;
  return { ok: true, data };
}
