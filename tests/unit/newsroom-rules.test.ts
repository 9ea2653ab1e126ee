import { describe, expect, it } from "vitest";
import { ArticleInputSchema, CategoryInputSchema, MESSAGES, parseTags } from "../../app/utils/newsroom-rules";
import { slugify } from "../../app/utils/slug.server";

const CATEGORY = "8c7e3a52-2f0e-4d4f-9a31-0e1f2a3b4c5d";
const valid = { title: "Заголовок", content: "Текст", category_id: CATEGORY };
const errorsOf = (input: unknown) => {
  const result = ArticleInputSchema.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join("."), i.message]));
};

describe("slugify (Ukrainian transliteration)", () => {
  it("follows the national rules for titles", () => {
    expect(slugify("Щастя у Києві")).toBe("shchastia-u-kyievi");
    expect(slugify("Їжак і Євген знайшли ґанок")).toBe("yizhak-i-yevhen-znaishly-ganok");
    expect(slugify("Згорілий м'яч — 2026!")).toBe("zghorilyi-miach-2026");
    expect(slugify("James Webb: ранні галактики")).toBe("james-webb-ranni-halaktyky");
  });
  it("gives only a-z, 0-9 and single hyphens, at most 80 characters, cut at a word", () => {
    const slug = slugify("Дуже ".repeat(40) + "довгий заголовок");
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(slugify("«»!!!")).toBe("");
  });
});

describe("parseTags", () => {
  it("'a, b, ,c' gives three tags", () => {
    expect(parseTags("a, b, ,c")).toEqual(["a", "b", "c"]);
  });
  it("trims, drops empties and repeats (case-insensitive), accepts a list", () => {
    expect(parseTags(" Космос ,космос,  NASA  ,")).toEqual(["Космос", "NASA"]);
    expect(parseTags(["x", " y ", ""])).toEqual(["x", "y"]);
    expect(parseTags("")).toEqual([]);
  });
});

describe("ArticleInputSchema", () => {
  it("accepts a minimal article and fills defaults", () => {
    const parsed = ArticleInputSchema.parse({ ...valid, tags: "a, b, ,c" });
    expect(parsed).toMatchObject({ status: "draft", tags: ["a", "b", "c"], subtitle: null, featured_image: null });
    expect(parsed.slug).toBeUndefined();
  });
  it("gives the SPEC messages for missing title, content and category", () => {
    expect(errorsOf({})).toEqual({
      title: MESSAGES.titleContentRequired,
      content: MESSAGES.titleContentRequired,
      category_id: MESSAGES.categoryRequired,
    });
    expect(errorsOf({ ...valid, title: "   ", content: " \n " })).toMatchObject({
      title: MESSAGES.titleContentRequired,
      content: MESSAGES.titleContentRequired,
    });
  });
  it("asks to reload for a category id without a hyphen", () => {
    expect(errorsOf({ ...valid, category_id: "42" })).toEqual({ category_id: MESSAGES.categoryInvalid });
  });
  it("caps SEO title at 60 and description at 160, and the DESIGN §7 limits", () => {
    expect(errorsOf({ ...valid, seo_title: "x".repeat(60), seo_description: "x".repeat(160) })).toEqual({});
    expect(errorsOf({ ...valid, seo_title: "x".repeat(61), seo_description: "x".repeat(161) })).toEqual({
      seo_title: MESSAGES.seoTitle,
      seo_description: MESSAGES.seoDescription,
    });
    expect(errorsOf({ ...valid, title: "x".repeat(256), subtitle: "x".repeat(501) })).toEqual({ title: MESSAGES.title, subtitle: MESSAGES.subtitle });
    expect(errorsOf({ ...valid, tags: Array.from({ length: 31 }, (_, i) => `t${i}`) })).toEqual({ tags: MESSAGES.tagsCount });
    expect(errorsOf({ ...valid, tags: ["x".repeat(51)] })).toEqual({ tags: MESSAGES.tagLength });
  });
  it("refuses wrong types, unknown statuses, bad slugs and unsafe image URLs; ignores extra fields", () => {
    expect(Object.keys(errorsOf({ ...valid, title: 5, status: "live", slug: "Не slug", featured_image: "javascript:alert(1)" })).sort()).toEqual([
      "featured_image",
      "slug",
      "status",
      "title",
    ]);
    const parsed = ArticleInputSchema.parse({ ...valid, author_id: "x", views: 1e6, featured_image: "/uploads/a.webp" });
    expect(parsed).not.toHaveProperty("author_id");
    expect(parsed).not.toHaveProperty("views");
    expect(ArticleInputSchema.parse({ ...valid, featured_image: "data:image/png;base64,iVBORw0KGgo=" }).featured_image).toMatch(/^data:image/);
  });
});

describe("CategoryInputSchema", () => {
  it("'Name is required', limits, optional slug", () => {
    expect(CategoryInputSchema.safeParse({ name: " " }).error?.issues[0].message).toBe("Name is required");
    expect(CategoryInputSchema.safeParse({}).error?.issues[0].message).toBe("Name is required");
    expect(CategoryInputSchema.safeParse({ name: "x".repeat(101) }).success).toBe(false);
    expect(CategoryInputSchema.safeParse({ name: "x", description: "x".repeat(1001) }).success).toBe(false);
    expect(CategoryInputSchema.parse({ name: " Фізика ", description: "", slug: "" })).toEqual({ name: "Фізика", description: null, slug: undefined });
  });
});
