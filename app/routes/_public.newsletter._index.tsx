import { data, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { NewsletterSignup } from "~/components/public/newsletter-signup";
import { mailConfigured } from "~/services/mail.server";
import { requestSubscription, type SubscribeResult } from "~/services/newsletter.server";
import { buildMeta, siteFromMatches } from "~/utils/seo-meta";

// /newsletter (issue 28 item 3): what the newsletter is, and the subscribe form; the footer's form
// posts here too. Double opt-in: the answer asks the reader to confirm by the emailed link.

const SubscribeSchema = z.object({
  email: z.string().trim().min(1, "Вкажіть email").max(254, "Не більше 254 символів").email("Невірний формат email"),
});

export async function loader() {
  return { mail: mailConfigured() };
}

const MESSAGES: Record<SubscribeResult, string> = {
  sent: "Майже готово! Ми надіслали лист із посиланням для підтвердження. Відкрийте його протягом 48 годин — без підтвердження ми нічого не надсилатимемо.",
  already:
    "На цю адресу вже надіслано лист із посиланням для підтвердження (або її вже підписано), тож повторно не надсилаємо. Перевірте пошту й теку «Спам»: посилання дійсне 48 годин.",
  "mail-off": "Пошту не налаштовано: розсилка поки не працює. Спробуйте пізніше.",
  failed: "Не вдалося надіслати лист для підтвердження. Спробуйте ще раз трохи пізніше.",
};

export async function action({ request }: ActionFunctionArgs) {
  const parsed = SubscribeSchema.safeParse({ email: (await request.formData()).get("email") ?? "" });
  if (!parsed.success) return data({ ok: false, message: parsed.error.issues[0].message }, { status: 422 });
  const result = await requestSubscription({ email: parsed.data.email });
  const ok = result === "sent" || result === "already";
  return data({ ok, message: MESSAGES[result] }, { status: result === "mail-off" ? 503 : result === "failed" ? 502 : 200 });
}

export default function NewsletterPage() {
  const { mail } = useLoaderData<typeof loader>();
  const result = useActionData<{ ok: boolean; message: string }>();
  return (
    <div className="newsletter-page">
      <h1>Розсилка</h1>
      <p>
        Раз на тиждень — найчитаніші й найновіші статті, а коли стається щось важливе, окремий лист. Ми надсилаємо лише те, на що ви погодилися: спершу
        підтвердіть адресу за посиланням із листа. Кожен лист має посилання, щоб відписатися одним кліком; відписавшись, ви зникаєте з нашого списку.
      </p>
      {result ? (
        <p role={result.ok ? "status" : "alert"} className={`newsletter-note${result.ok ? "" : " error"}`}>
          {result.message}
        </p>
      ) : null}
      {mail ? (
        <NewsletterSignup id="newsletter-page" heading={false} />
      ) : (
        <p role="status" className="newsletter-note">
          Пошту не налаштовано: розсилка поки не працює.
        </p>
      )}
    </div>
  );
}

export const meta: MetaFunction = ({ matches }) =>
  buildMeta(siteFromMatches(matches), { title: "Розсилка", description: "Підписка на тижневу розсилку новин науки.", path: "/newsletter" });
