/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

// Single Fetch types (remix.config.js future.v3_singleFetch): loaders and actions return plain
// objects or data(), and useLoaderData infers them.
declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
  // What server/app.ts passes every loader and action (getLoadContext).
  interface AppLoadContext {
    cspNonce: string;
    /** A document request's HTML carried once, by the markup (app/utils/document-html.ts); absent for a `.data` request. */
    documentHtml?: Map<string, string>;
    /** Only while the page store renders a page to keep it: the ids of the articles the page shows, its tags (showsArticles in app/utils/page-cache.server.ts). */
    shownArticles?: Set<string>;
  }
}
export {};
