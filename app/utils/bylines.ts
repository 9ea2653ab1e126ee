import { z } from "zod";

// Bylines (issue 29, DESIGN §16, docs/decisions/028): shapes and validation shared by the server,
// the editor's byline picker and the guest author screen. Imports nothing server-only.

export type BylineKind = "staff" | "guest";

/** One author of an article as every shape shows it (`id` only in the newsroom's shapes). */
export interface Byline {
  id?: string;
  kind: BylineKind;
  name: string;
  slug: string;
  /** `/author/{slug}`. */
  url: string;
}

export const MAX_BYLINES = 10;

/** One author the editor's byline picker offers. */
export interface BylineOption {
  kind: BylineKind;
  id: string;
  name: string;
  /** What tells two of the same name apart: the username, or 'гість'. */
  detail: string;
}

export const BYLINE_MESSAGES = {
  empty: "Оберіть принаймні одного автора",
  tooMany: `Не більше ${MAX_BYLINES} авторів`,
  duplicate: "Автор повторюється",
  unknown: "Такого автора немає",
  firstStaff: "Першим автором має бути працівник редакції (власник статті)",
  reporterFirst: "Репортер лишається першим автором своєї статті",
  name: "Ім'я: від 1 до 100 символів",
  bio: "Біографія: до 1000 символів",
  photo: "Фото: адреса зображення (/uploads/… або https://…)",
  links: "Посилання: до 5 рядків «Назва | https://…»",
  slug: "Адреса: латинські літери, цифри й дефіси, до 80 символів",
  slugTaken: "Ця адреса автора вже зайнята",
} as const;

/** One entry of `authors` in POST/PUT /api/articles: `{kind, id}`. */
export const BylineRefSchema = z.object({
  kind: z.enum(["staff", "guest"], { errorMap: () => ({ message: "Тип автора: staff або guest" }) }),
  id: z.string({ invalid_type_error: "Має бути текстом" }).trim().min(1, BYLINE_MESSAGES.unknown).max(64, BYLINE_MESSAGES.unknown),
});
export type BylineRef = z.infer<typeof BylineRefSchema>;

export const BylinesSchema = z
  .array(BylineRefSchema, { invalid_type_error: "Автори: список {kind, id}" })
  .min(1, BYLINE_MESSAGES.empty)
  .max(MAX_BYLINES, BYLINE_MESSAGES.tooMany)
  .refine((list) => new Set(list.map((b) => `${b.kind}:${b.id}`)).size === list.length, BYLINE_MESSAGES.duplicate);

/** `noindex` of the article body: a boolean (the form's checkbox arrives as "on"). */
export const NoindexSchema = z
  .union([z.boolean(), z.enum(["on", "1", "0", "true", "false", ""])], { invalid_type_error: "noindex: true або false" })
  .transform((v) => v === true || v === "on" || v === "1" || v === "true");

export interface AuthorLink {
  label: string;
  url: string;
}

/** Links typed one a line as `Назва | https://…` (or a bare URL). */
export function parseLinks(text: string): AuthorLink[] | undefined {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length > 5) return undefined;
  const links: AuthorLink[] = [];
  for (const line of lines) {
    const at = line.lastIndexOf("|");
    const label = (at === -1 ? "" : line.slice(0, at)).trim();
    const url = (at === -1 ? line : line.slice(at + 1)).trim();
    if (!/^https?:\/\/[^\s<>"]+$/i.test(url) || url.length > 300 || label.length > 60) return undefined;
    links.push({ label: label || new URL(url).hostname, url });
  }
  return links;
}

export const linksText = (links: AuthorLink[]) => links.map((l) => `${l.label} | ${l.url}`).join("\n");

const PHOTO_RE = /^(https?:\/\/[^\s<>"]+|\/uploads\/[^\s<>"]+|\/images\/[^\s<>"]+)$/i;

/** The author-profile fields (a guest's form and a staff member's own profile). */
export const AuthorProfileSchema = z.object({
  bio: z
    .string()
    .trim()
    .max(1000, BYLINE_MESSAGES.bio)
    .nullish()
    .transform((v) => v || null),
  photo: z
    .string()
    .trim()
    .max(500, BYLINE_MESSAGES.photo)
    .refine((v) => v === "" || PHOTO_RE.test(v), BYLINE_MESSAGES.photo)
    .nullish()
    .transform((v) => v || null),
  links: z
    .string()
    .max(2000, BYLINE_MESSAGES.links)
    .nullish()
    .transform((v, ctx) => {
      const links = parseLinks(v ?? "");
      if (!links) {
        ctx.addIssue({ code: "custom", message: BYLINE_MESSAGES.links });
        return z.NEVER;
      }
      return links;
    }),
});

export const GuestAuthorSchema = AuthorProfileSchema.extend({
  name: z.string({ required_error: BYLINE_MESSAGES.name }).trim().min(1, BYLINE_MESSAGES.name).max(100, BYLINE_MESSAGES.name),
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .max(80, BYLINE_MESSAGES.slug)
    .regex(/^([a-z0-9]+(-[a-z0-9]+)*)?$/, BYLINE_MESSAGES.slug)
    .nullish()
    .transform((v) => v || undefined),
});
export type GuestAuthorInput = z.infer<typeof GuestAuthorSchema>;

export const ROLE_TITLES = { admin: "Адміністратор сайту", editor: "Редактор", reporter: "Журналіст", guest: "Запрошений автор" } as const;
