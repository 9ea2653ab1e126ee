import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { subscriberByUnsubscribeToken, unsubscribe } from "~/models/newsletter.server";
import { buildMeta, siteFromMatches } from "~/utils/seo-meta";

// Leaving the newsletter (issue 28 item 3): every email links here and carries RFC 8058's
// `List-Unsubscribe` (this address) and `List-Unsubscribe-Post: List-Unsubscribe=One-Click`.
// GET shows a button (a link opened by a mail scanner unsubscribes nobody); POST unsubscribes,
// whether from that button or from the mail client's one-click POST, which comes with no session
// and from no page of ours: server/app.ts lets exactly this POST past the same-origin check
// (the token is its authority). The subscriber's row is deleted.

const tokenOf = (request: Request, form?: FormData) => String(form?.get("token") || new URL(request.url).searchParams.get("token") || "");

export async function loader({ request }: LoaderFunctionArgs) {
  const token = tokenOf(request);
  const subscriber = await subscriberByUnsubscribeToken({ token });
  return data({ token, email: subscriber?.email ?? null }, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const token = tokenOf(request, await request.formData());
  const removed = await unsubscribe({ token });
  // Unknown or used already: the reader is not subscribed either way.
  return data({ done: true, removed }, { headers: { "Cache-Control": "no-store" } });
}

export default function UnsubscribePage() {
  const { token, email } = useLoaderData<{ token: string; email: string | null }>();
  const result = useActionData<{ done: boolean; removed: boolean }>();
  return (
    <div className="newsletter-page">
      <h1>Відписка від розсилки</h1>
      {result?.done ? (
        <p role="status" className="newsletter-note">
          Готово: вашу адресу видалено зі списку розсилки. Більше листів не буде.
        </p>
      ) : email ? (
        <>
          <p>
            Відписати <strong>{email}</strong> від розсилки? Адресу буде видалено з нашого списку.
          </p>
          <Form method="post">
            <input type="hidden" name="token" value={token} />
            <button type="submit" className="button button-primary">
              Відписатися
            </button>
          </Form>
        </>
      ) : (
        <p role="status" className="newsletter-note">
          Цієї адреси немає в списку розсилки: можливо, ви вже відписалися.
        </p>
      )}
      <p>
        <Link to="/">На головну</Link>
      </p>
    </div>
  );
}

export const meta: MetaFunction = ({ matches }) => [
  ...buildMeta(siteFromMatches(matches), { title: "Відписка від розсилки", path: "/newsletter/unsubscribe", robots: "noindex, nofollow" }),
  { name: "referrer", content: "same-origin" },
];
