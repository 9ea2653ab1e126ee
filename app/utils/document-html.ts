import type { AppLoadContext } from "@remix-run/node";
import { createContext, useContext, useState } from "react";

// An article's body is in a document once (issue 16, decision 017). Remix writes a page's loader
// data into the page as well as its markup, so a body in the loader data was sent twice. For a
// document request the loader hands the body to the load context instead (keepInDocument); the
// server's render reads it from there (DocumentHtmlProvider, app/entry.server.tsx) and the browser
// takes it back from the page it hydrates (useDocumentHtml). A client-side navigation's data
// request (`.data`, no documentHtml in its context) carries the body in its loader data as before.

const DocumentHtmlContext = createContext<ReadonlyMap<string, string> | undefined>(undefined);
export const DocumentHtmlProvider = DocumentHtmlContext.Provider;

/** The HTML for the loader data: null when this is a document request and the markup carries it. */
export function keepInDocument(context: AppLoadContext, id: string, html: string | null): string | null {
  if (!html || !context.documentHtml) return html;
  context.documentHtml.set(id, html);
  return null;
}

/**
 * The HTML to render for `id`: the loader data's when it has it; otherwise, on the server, what
 * keepInDocument kept, and in the browser, what the element `elementId` holds in the served page
 * (read once, before hydration changes anything). "" when there is none.
 */
export function useDocumentHtml(id: string, html: string | null, elementId: string): string {
  const kept = useContext(DocumentHtmlContext);
  const [fromDocument] = useState(() =>
    html !== null ? "" : (kept?.get(id) ?? (typeof document === "undefined" ? "" : (document.getElementById(elementId)?.innerHTML ?? ""))),
  );
  return html ?? fromDocument;
}

/** The key under which the editor's echoed text is kept (app/services/article-form.server.ts). */
export const EDITOR_CONTENT_KEPT = "editor-content";

/**
 * Like useDocumentHtml, for the text of a form control that an action echoed back (issue 25: a
 * refused 4 MB preview carried its text twice, in the markup and the action data, ~50 ms of the
 * request thread). When `inDocument`, the text is on the server what keepInDocument kept, and in
 * the browser what the served control (`selector`) holds; otherwise undefined (the data has it).
 */
export function useDocumentText(id: string, inDocument: boolean, selector: string): string | undefined {
  const kept = useContext(DocumentHtmlContext);
  const [fromDocument] = useState(() => {
    if (!inDocument) return undefined;
    if (kept) return kept.get(id) ?? "";
    if (typeof document === "undefined") return "";
    return document.querySelector<HTMLTextAreaElement | HTMLInputElement>(selector)?.value ?? "";
  });
  return inDocument ? (fromDocument ?? "") : undefined;
}
