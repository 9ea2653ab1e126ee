import SQLite from "better-sqlite3";

// One query, prepared (already sanitised) HTML: the least a Remix page showing an article does.
const sqlite = new SQLite(process.env.BENCH_DB!, { readonly: true });
const bySlug = sqlite.prepare("select title, content_html from articles where slug = ? and status = 'published'");

export const articleBySlug = (slug: string) => bySlug.get(slug) as { title: string; content_html: string } | undefined;
