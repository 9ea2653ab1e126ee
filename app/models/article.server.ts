// The article entity's surface for routes, services, the seed and tests. Its parts, one job each:
// article-queries.server.ts (every read, one shared selection), article-writes.server.ts (writes
// and their permission checks, in transactions) and article-cache.server.ts (which cached public
// pages a write clears). public-article.server.ts holds the public site's reads.
export { countPublished, getArticleById, listAdminArticles, listPublishedArticles, type ArticleView } from "./article-queries.server";
export { canReadArticle } from "./article-access.server";
export { bulkArticleAction, canEditArticle, createArticle, deleteArticle, insertArticle, setArticleStatus, updateArticle } from "./article-writes.server";
