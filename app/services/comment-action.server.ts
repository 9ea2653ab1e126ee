import { data, redirect, type ActionFunctionArgs } from "@remix-run/node";
import type { CommentFormResult } from "../components/public/comments-section";
import { getPublicArticle } from "../models/public-article.server";
import { formValues } from "../utils/forms.server";
import { readBodyText } from "../utils/http.server";
import { COMMENT_MESSAGES, deleteOwnComment, formStamp, postComment, readerCookie, readerToken } from "./comment-post.server";
import { clientAddress } from "./session.server";

// The action of the public article page (issue 28): a reader posts a comment, or deletes their own
// within 15 minutes. Without JavaScript the browser posts the form and follows the redirect; with
// it, Remix does the same by fetch. A comment taken answers a redirect to itself, with the
// reader's deletion cookie; a refused one answers the form again with its message and values.

const MAX_FORM_BYTES = 64 * 1024;

export async function commentAction({ request, params }: ActionFunctionArgs) {
  const found = await getPublicArticle({ slugOrId: params.slug ?? "" });
  if (!found?.article) throw new Response("Article not found", { status: 404 });
  const article = found.article;
  // A comment form is small: a body past 64 KB is not one (413, before anything is parsed).
  const text = await readBodyText(request, MAX_FORM_BYTES).catch(() => {
    throw new Response("Запит завеликий", { status: 413 });
  });
  const form = new URLSearchParams(/^application\/x-www-form-urlencoded/i.test(request.headers.get("Content-Type") ?? "") ? text : "");
  const input = Object.fromEntries([...new Set(form.keys())].map((key) => [key, form.get(key)]));
  const token = readerToken(request.headers.get("Cookie"));

  if (input.intent === "delete-comment") {
    const ok = await deleteOwnComment({ id: String(input.comment_id ?? ""), token });
    const result: CommentFormResult = { ok, form: "delete", message: ok ? COMMENT_MESSAGES.deleted : COMMENT_MESSAGES.notDeletable };
    return data(result, { status: ok ? 200 : 403 });
  }

  // An IPv4 address as Node reports it on a dual-stack socket (`::ffff:203.0.113.7`) is kept as itself.
  const address = clientAddress(request).replace(/^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i, "$1");
  const outcome = await postComment({ articleId: article.id, input, ip: address === "unknown" ? null : address, token });
  if (outcome.ok) {
    const headers = { "Set-Cookie": readerCookie(outcome.token) };
    return redirect(`/article/${encodeURIComponent(article.slug)}#comment-${outcome.id}`, { status: 303, headers });
  }
  const result: CommentFormResult = {
    ok: false,
    form: typeof input.parent_id === "string" ? input.parent_id : "",
    message: outcome.message,
    errors: outcome.errors,
    values: formValues({ author_name: input.author_name, author_email: input.author_email, body: input.body }),
    stamp: formStamp(),
  };
  return data(result, { status: outcome.status, headers: outcome.retryAfter ? { "Retry-After": String(outcome.retryAfter) } : undefined });
}
