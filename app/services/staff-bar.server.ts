import { canEditArticle, getArticleById } from "../models/article.server";
import { getSettings } from "../models/settings.server";
import { getUser } from "./auth.server";

// Issue 31 items 15 and 19: staff reading the public site see a slim bar (who they are, the way
// back to the admin, "Редагувати" on an article they may edit, and a warning when readers get the
// maintenance page). DESIGN §12: nothing private is ever kept. Only a request carrying a session
// cookie reads this; such requests bypass the page store both ways (public-middleware.server.ts),
// and the store renders its pages through an internal request without cookies, so no stored page
// can carry the bar.

/** The signed-in staff member reading a public page, or undefined (anonymous: no session read at all). */
async function staffReader(request: Request) {
  if (!request.headers.get("Cookie")?.includes("__session=")) return undefined;
  return getUser(request);
}

/** The public layout's bar for a signed-in staff member, or null for readers. */
export async function staffBar(request: Request) {
  const user = await staffReader(request);
  if (!user) return null;
  const { maintenance_mode } = await getSettings("general");
  return { name: user.name || user.username, isAdmin: user.role === "admin", maintenance: maintenance_mode };
}

/** The editor's address of a public article, when the signed-in reader may edit it (the editor's own rule). */
export async function staffEditUrl(request: Request, articleId: string): Promise<string | null> {
  const user = await staffReader(request);
  if (!user) return null;
  const article = await getArticleById({ id: articleId });
  return article && canEditArticle(user, article) ? `/admin/articles/edit/${article.id}` : null;
}
