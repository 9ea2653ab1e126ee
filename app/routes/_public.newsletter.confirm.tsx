import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { confirmSubscription } from "~/models/newsletter.server";
import { buildMeta, siteFromMatches } from "~/utils/seo-meta";

// The double opt-in link (issue 28 item 3): /newsletter/confirm?token=… confirms a pending address
// within 48 hours. A GET that writes: the token is the whole authority, and opening it twice
// changes nothing more (idempotent). Never kept by the page store (its path is not a stored page).

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const outcome = await confirmSubscription({ token });
  return data({ outcome }, { status: outcome === "confirmed" ? 200 : outcome === "expired" ? 410 : 404, headers: { "Cache-Control": "no-store" } });
}

export default function ConfirmPage() {
  const { outcome } = useLoaderData<{ outcome: "confirmed" | "expired" | "invalid" }>();
  return (
    <div className="newsletter-page">
      <h1>Підписка на розсилку</h1>
      {outcome === "confirmed" ? (
        <p role="status" className="newsletter-note">
          Дякуємо! Підписку підтверджено: наступний тижневий лист прийде на вашу пошту.
        </p>
      ) : (
        <p role="alert" className="newsletter-note error">
          {outcome === "expired"
            ? "Посилання для підтвердження застаріло (воно дійсне 48 годин). Підпишіться ще раз — ми надішлемо нове."
            : "Посилання недійсне. Можливо, його скопійовано не повністю, або підписку вже скасовано."}
        </p>
      )}
      <p>
        <Link to="/newsletter">До сторінки розсилки</Link> · <Link to="/">На головну</Link>
      </p>
    </div>
  );
}

export const meta: MetaFunction = ({ matches }) => [
  ...buildMeta(siteFromMatches(matches), { title: "Підтвердження підписки", path: "/newsletter/confirm", robots: "noindex, nofollow" }),
  { name: "referrer", content: "same-origin" },
];
