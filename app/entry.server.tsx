import { Transform } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { DocumentHtmlProvider } from "./utils/document-html";
import { NonceProvider } from "./utils/nonce";

const ABORT_DELAY = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = typeof loadContext.cspNonce === "string" ? loadContext.cspNonce : "";
  // Crawlers and no-JS readers get the whole document at once; browsers get the shell early.
  const waitForAll = isbot(request.headers.get("user-agent") ?? "");
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <DocumentHtmlProvider value={loadContext.documentHtml}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </DocumentHtmlProvider>
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new Transform({
            // React 18.3's Node stream writer flushes its whole 2,048-byte buffer when a
            // multi-byte character does not fit, unwritten zero bytes included; browsers show
            // each as U+FFFD in Cyrillic text. A NUL is never valid HTML, so drop them here.
            transform(chunk: Buffer, _encoding, callback) {
              callback(null, chunk.includes(0) ? chunk.filter((byte) => byte !== 0) : chunk);
            },
            final(callback) {
              // DESIGN §2: clear the abort timer when rendering finishes, or every request's
              // render stays in memory for ABORT_DELAY.
              clearTimeout(timer);
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    timer = setTimeout(abort, ABORT_DELAY);
  });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  console.error(error);
}

// What server.ts uses of the app (docs/decisions/012): it reaches this as build.entry.module.runtime.
export { runtime } from "./services/runtime.server";
