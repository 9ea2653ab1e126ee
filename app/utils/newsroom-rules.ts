import { z } from "zod";
import { BylinesSchema, NoindexSchema } from "./bylines";
import { requireCorrectionNote, SCIENCE_INPUT } from "./science-rules";

// The newsroom's input rules (SPEC §5 'Article save', 'Category form'; DESIGN §7 limits), one
// copy for the screens' actions, the JSON endpoints and the editor's client-side hints.

/**
 * An article's statuses, the one list the table type, the rules and the screens use: SPEC §3's
 * three and the editorial desk's two (DESIGN §11): `review` (submitted to the desk) and
 * `scheduled` (goes out by itself at its `published_at`).
 */
export const ARTICLE_STATUSES = ["draft", "review", "scheduled", "published", "archived"] as const;
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

/** The statuses' names on the screens (badges, filters, the editor). */
export const STATUS_LABELS: Record<ArticleStatus, string> = {
  draft: "Чернетка",
  review: "На перевірці",
  scheduled: "Заплановано",
  published: "Опубліковано",
  archived: "Архів",
};

export const LIMITS = {
  imageAlt: 200,
  imageCaption: 300,
  /** A featured image narrower than this looks soft on a wide screen and in social cards. */
  featuredMinWidth: 1200,
  title: 255,
  subtitle: 500,
  content: 500_000,
  tags: 30,
  tag: 50,
  seoTitle: 60,
  seoDescription: 160,
  slug: 200,
  categoryName: 100,
  categoryDescription: 1_000,
  imageBytes: 5 * 1024 * 1024, // SPEC §9: 5242880 bytes
} as const;

/** Images sent inline as data: URLs (content and featured image) that one save may store. */
export const MAX_EMBEDDED_IMAGES = 20;

// SPEC §5 texts, shown in Ukrainian on the editor (SPEC §2: the editor's text is Ukrainian).
export const MESSAGES = {
  imageAlt: "Опис зображення: не більше 200 символів",
  imageCaption: "Підпис зображення: не більше 300 символів",
  titleContentRequired: "Заголовок і вміст — обов'язкові поля",
  categoryRequired: "Оберіть категорію для статті",
  categoryInvalid: "Невірний ідентифікатор категорії. Будь ласка, перезавантажте сторінку.",
  categoryMissing: "Такої категорії немає. Будь ласка, перезавантажте сторінку.",
  seoTitle: `SEO-заголовок — не більше ${LIMITS.seoTitle} символів`,
  seoDescription: `SEO-опис — не більше ${LIMITS.seoDescription} символів`,
  title: `Заголовок — не більше ${LIMITS.title} символів`,
  subtitle: `Підзаголовок — не більше ${LIMITS.subtitle} символів`,
  content: "Вміст — не більше 500 000 символів",
  // Issue 25: what markdown rendering answers past its budgets (app/utils/cpu-pool.server.ts).
  contentTooSlow:
    "Вміст надто складний для обробки: розмітка не вклалася в ліміт часу. Спростіть її (наприклад, приберіть тисячі позначок _ чи * поспіль) і спробуйте ще раз.",
  contentTooHeavy:
    "Вміст надто складний для обробки: розмітка потребує забагато пам’яті (наприклад, сотні рівнів вкладених списків). Спростіть її і спробуйте ще раз.",
  contentTooDeep: "Вміст надто складний для обробки: надто глибока вкладеність цитат чи списків. Спростіть розмітку і спробуйте ще раз.",
  diffTooComplex: "Версії надто різні, щоб порівняти їх по словах у межах ліміту часу. Версію все одно можна відновити.",
  diffTooLarge: "Версії надто великі, щоб порівняти їх по словах. Версію все одно можна відновити.",
  tagsCount: `Не більше ${LIMITS.tags} тегів`,
  tagLength: `Кожен тег — не більше ${LIMITS.tag} символів`,
  slug: "Slug: лише малі латинські літери, цифри й дефіси",
  slugTaken: "Такий slug уже використовується",
  status: "Статус: draft, review, scheduled, published або archived",
  image: "Некоректне посилання на зображення",
  tooManyImages: `Забагато вбудованих зображень: не більше ${MAX_EMBEDDED_IMAGES} за одне збереження. Завантажте решту в медіатеку й вставте посиланнями.`,
  // SPEC §5 'Images'
  fileTooLarge: "Розмір файлу не повинен перевищувати 5 МБ",
  fileNotImage: "Будь ласка, оберіть файл зображення",
  fileReadError: "Помилка завантаження файлу",
  // SPEC §5 'Category form'
  nameRequired: "Name is required",
  categoryName: `Назва — не більше ${LIMITS.categoryName} символів`,
  categoryDescription: `Опис — не більше ${LIMITS.categoryDescription} символів`,
} as const;

/** 'a, b, ,c' → ['a', 'b', 'c']: split on commas, trimmed, empty entries dropped, no repeats. */
export function parseTags(value: string | readonly string[] | null | undefined): string[] {
  const parts = typeof value === "string" ? value.split(",") : (value ?? []).flatMap((v) => String(v).split(","));
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const part of parts) {
    const tag = part.trim().replace(/\s+/g, " ");
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  return tags;
}

const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
// A stored upload or another http(s) address, or an embedded image the save stores as a file.
const IMAGE_RE = /^(https?:\/\/\S+|\/(?!\/)\S*|data:image\/[a-z0-9.+-]+;base64,[a-z0-9+/=\s]+)$/i;

const optionalText = (max: number, message: string) =>
  z
    .string({ invalid_type_error: "Має бути текстом" })
    .trim()
    .max(max, message)
    .nullish()
    .transform((v) => v || null);

const optionalSlug = z
  .string({ invalid_type_error: "Має бути текстом" })
  .trim()
  .toLowerCase()
  .max(LIMITS.slug, MESSAGES.slug)
  .regex(SLUG_RE, MESSAGES.slug)
  .or(z.literal(""))
  .nullish()
  .transform((v) => v || undefined);

/** Body of POST /api/articles/ and PUT /api/articles/{id}, and the editor's form (SPEC §7). */
const ArticleFields = z.object({
  // Field-level checks (not an object refinement), so every message shows at once.
  title: z.string({ invalid_type_error: "Має бути текстом" }).trim().min(1, MESSAGES.titleContentRequired).max(LIMITS.title, MESSAGES.title).default(""),
  subtitle: optionalText(LIMITS.subtitle, MESSAGES.subtitle),
  // Embedded images are stored as files first; the 500,000 limit applies after that (DESIGN §7).
  content: z
    .string({ invalid_type_error: "Має бути текстом" })
    .max(8 * 1024 * 1024, MESSAGES.content)
    .refine((v) => v.trim().length > 0, MESSAGES.titleContentRequired)
    .default(""),
  category_id: z.preprocess(
    (v) => v ?? "",
    z
      .string({ invalid_type_error: MESSAGES.categoryInvalid })
      .trim()
      .min(1, MESSAGES.categoryRequired)
      // SPEC §5: a category id contains a hyphen (a UUID); anything else means a stale page.
      .refine((v) => v === "" || (v.includes("-") && v.length <= 64), MESSAGES.categoryInvalid),
  ),
  tags: z
    .union([z.string(), z.array(z.string({ invalid_type_error: "Тег має бути текстом" }))], {
      invalid_type_error: "Теги: рядок через кому або список",
    })
    .nullish()
    .transform((v) => parseTags(v ?? []))
    .refine((tags) => tags.length <= LIMITS.tags, MESSAGES.tagsCount)
    .refine((tags) => tags.every((t) => t.length <= LIMITS.tag), MESSAGES.tagLength),
  featured_image: z
    .string({ invalid_type_error: MESSAGES.image })
    .trim()
    .max(8 * 1024 * 1024, MESSAGES.fileTooLarge)
    .refine((v) => v === "" || IMAGE_RE.test(v), MESSAGES.image)
    .nullish()
    .transform((v) => v || null),
  featured_image_alt: optionalText(LIMITS.imageAlt, MESSAGES.imageAlt),
  featured_image_caption: optionalText(LIMITS.imageCaption, MESSAGES.imageCaption),
  status: z.enum(ARTICLE_STATUSES, { errorMap: () => ({ message: MESSAGES.status }) }).default("draft"),
  seo_title: optionalText(LIMITS.seoTitle, MESSAGES.seoTitle),
  seo_description: optionalText(LIMITS.seoDescription, MESSAGES.seoDescription),
  slug: optionalSlug,
  /** Issue 29: the bylines in order (`[{kind: "staff"|"guest", id}]`) and the noindex switch; each kept when left out. */
  authors: BylinesSchema.optional(),
  noindex: NoindexSchema.optional(),
  /** The version the writer started from; a newer one on the server refuses the save (409). */
  version: z.coerce.number({ invalid_type_error: "Некоректна версія" }).int().positive().optional(),
  // Issue 29: embargo, sources, corrections (app/utils/science-rules.ts).
  ...SCIENCE_INPUT,
});

/** The article body with its one object-level rule: a correction carries its note (issue 29). */
export const ArticleInputSchema = ArticleFields.superRefine(requireCorrectionNote);

export type ArticleInput = z.infer<typeof ArticleInputSchema>;

/** POST /api/categories/, PUT /api/categories/{id} and the category form. */
export const CategoryInputSchema = z.object({
  name: z
    .string({ required_error: MESSAGES.nameRequired, invalid_type_error: MESSAGES.nameRequired })
    .trim()
    .min(1, MESSAGES.nameRequired)
    .max(LIMITS.categoryName, MESSAGES.categoryName),
  description: optionalText(LIMITS.categoryDescription, MESSAGES.categoryDescription),
  slug: optionalSlug,
});

export type CategoryInput = z.infer<typeof CategoryInputSchema>;

/** What the article list does to several articles at once (issue 17). */
export const BULK_ACTIONS = ["publish", "unpublish", "delete"] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** The article list's sortable columns (issue 17). */
export const ADMIN_SORTS = ["created", "views", "title"] as const;
export type AdminSort = (typeof ADMIN_SORTS)[number];
