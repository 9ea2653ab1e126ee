import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { CommentSpamFields } from "~/components/admin/comment-spam-fields";
import type { AdminHandle } from "~/components/admin/nav";
import { CheckboxField, Field } from "~/components/ui/field";
import { getSiteSettings, saveSiteSettings, SettingsFormSchema } from "~/models/settings.server";
import { requireRole } from "~/services/auth.server";
import { formFailureOf } from "~/utils/forms";
import { formFailure, parseForm } from "~/utils/forms.server";
import { SCREEN_ROLES } from "~/utils/roles";
import { LANGUAGE_OPTIONS, ROBOTS_OPTIONS, TWO_FACTOR_LABELS, TWO_FACTOR_OPTIONS } from "~/utils/settings-options";

const TITLE = "Налаштування";
export const handle: AdminHandle = { title: TITLE };

const TABS = [
  { id: "general", label: "General" },
  { id: "content", label: "Content" },
  { id: "seo", label: "SEO" },
  { id: "security", label: "Security" },
  { id: "integrations", label: "Integrations" },
] as const;
type TabId = (typeof TABS)[number]["id"];

// Which tab shows a field, so a failed save opens the tab with the first error.
const FIELD_TAB: Record<string, TabId> = {
  site_url: "general",
  admin_email: "general",
  maintenance_mode: "general",
  posts_per_page: "content",
  allow_comments: "content",
  moderation_required: "content",
  comment_max_links: "content",
  comment_blocklist: "content",
  site_title: "seo",
  site_description: "seo",
  site_keywords: "seo",
  og_image: "seo",
  twitter_handle: "seo",
  language: "seo",
  robots: "seo",
  canonical_url: "seo",
  session_timeout: "security",
  max_login_attempts: "security",
  two_factor_required: "security",
  gsc_verification_code: "integrations",
  gsc_meta_verification: "integrations",
  gsc_property_url: "integrations",
  analytics_enabled: "integrations",
};

const SAVED_MESSAGE = "Налаштування збережено. Соціальні мережі покажуть зміни за 5–10 хвилин.";
const FAILED_MESSAGE = "Помилка під час збереження налаштувань. Спробуйте ще раз.";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, SCREEN_ROLES["/admin/settings"]);
  return { settings: await getSiteSettings() };
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireRole(request, SCREEN_ROLES["/admin/settings"]);
  const parsed = parseForm(SettingsFormSchema, await request.formData());
  if (!parsed.ok) return formFailure(parsed, 422);
  await saveSiteSettings(parsed.data, actor);
  return { ok: true as const, savedAt: Date.now() };
}

export default function SettingsScreen() {
  const { settings } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [searchParams] = useSearchParams();
  const requested = searchParams.get("tab");
  const [tab, setTab] = useState<TabId>(TABS.some((t) => t.id === requested) ? (requested as TabId) : "general");
  // The result shows (also when rendered without JavaScript) until 5 s have passed (SPEC §4).
  const [expired, setExpired] = useState<typeof result>(undefined);
  const showSaved = Boolean(result) && expired !== result;
  const failure = formFailureOf(result);
  const errors = failure?.errors ?? {};
  // After a failed save the form shows what was posted (also without JavaScript), else the saved settings.
  const value = (name: string, saved: string | number) => (failure ? (failure.values[name] ?? "") : String(saved));
  const checked = (name: string, saved: boolean) => (failure ? failure.values[name] === "on" : saved);
  const saving = navigation.state === "submitting";

  // After a save: 'Saved' and the message for 5 s (SPEC §4); after a failure, open its tab.
  useEffect(() => {
    if (!result) return;
    if (!result.ok) {
      const first = Object.keys(formFailureOf(result)?.errors ?? {})[0];
      if (first && FIELD_TAB[first]) setTab(FIELD_TAB[first]);
    }
    const timer = setTimeout(() => setExpired(result), 5_000);
    return () => clearTimeout(timer);
  }, [result]);

  return (
    <Form method="post" className="settings" noValidate>
      <div className="settings-tabs" role="tablist" aria-label="Розділи налаштувань">
        {TABS.map((t) => (
          <a
            key={t.id}
            href={`?tab=${t.id}`}
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`panel-${t.id}`}
            className={tab === t.id ? "active" : undefined}
            onClick={(event) => {
              if (!hydrated) return;
              event.preventDefault();
              setTab(t.id);
            }}
          >
            {t.label}
          </a>
        ))}
      </div>

      <div className="settings-body admin-card">
        <section role="tabpanel" id="panel-general" aria-labelledby="tab-general" hidden={tab !== "general"}>
          <h2>General</h2>
          <p className="muted small">Назву та опис сайту змінюють на вкладці SEO.</p>
          <Field
            label="Site URL"
            name="site_url"
            type="url"
            defaultValue={value("site_url", settings.general.site_url)}
            placeholder="https://nauka-ua.example"
            error={errors.site_url}
          />
          <Field
            label="Admin email"
            name="admin_email"
            type="email"
            defaultValue={value("admin_email", settings.general.admin_email)}
            error={errors.admin_email}
          />
          <CheckboxField
            label="Maintenance mode"
            name="maintenance_mode"
            defaultChecked={checked("maintenance_mode", settings.general.maintenance_mode)}
            hint="Публічний сайт відповідає сторінкою «технічні роботи» (503); персонал, що увійшов, бачить сайт."
          />
        </section>

        <section role="tabpanel" id="panel-content" aria-labelledby="tab-content" hidden={tab !== "content"}>
          <h2>Content</h2>
          <Field
            as="select"
            label="Posts per page"
            name="posts_per_page"
            defaultValue={value("posts_per_page", settings.content.posts_per_page)}
            error={errors.posts_per_page}
          >
            {[10, 15, 20, 25, 30].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </Field>
          <CheckboxField label="Allow comments" name="allow_comments" defaultChecked={checked("allow_comments", settings.content.allow_comments)} />
          <CheckboxField
            label="Require comment moderation"
            name="moderation_required"
            defaultChecked={checked("moderation_required", settings.content.moderation_required)}
          />
          <CommentSpamFields content={settings.content} value={value} errors={errors} />
          <aside className="info-panel">
            <h3>Content guidelines</h3>
            <ul>
              <li>Зображення менші за 1 МБ.</li>
              <li>Альтернативний текст для кожного зображення.</li>
              <li>Статті щонайменше на 300 слів.</li>
              <li>Теги й категорія для кожної статті.</li>
            </ul>
          </aside>
        </section>

        <section role="tabpanel" id="panel-seo" aria-labelledby="tab-seo" hidden={tab !== "seo"}>
          <h2>SEO</h2>
          <Field label="Site name *" name="site_title" required defaultValue={value("site_title", settings.seo.site_title)} error={errors.site_title} />
          <Field
            label="Canonical URL"
            name="canonical_url"
            type="url"
            defaultValue={value("canonical_url", settings.seo.canonical_url)}
            error={errors.canonical_url}
          />
          <Field
            as="textarea"
            label="Description *"
            name="site_description"
            rows={3}
            required
            defaultValue={value("site_description", settings.seo.site_description)}
            error={errors.site_description}
          />
          <Field
            label="Keywords (comma separated)"
            name="site_keywords"
            defaultValue={value("site_keywords", settings.seo.site_keywords)}
            error={errors.site_keywords}
          />
          <Field
            label="Open Graph image URL (recommended 1200x630)"
            name="og_image"
            type="url"
            defaultValue={value("og_image", settings.seo.og_image)}
            error={errors.og_image}
          />
          <Field
            label="Twitter handle"
            name="twitter_handle"
            defaultValue={value("twitter_handle", settings.seo.twitter_handle)}
            placeholder="@nauka_ua"
            error={errors.twitter_handle}
          />
          <Field as="select" label="Site language" name="language" defaultValue={value("language", settings.seo.language)} error={errors.language}>
            {LANGUAGE_OPTIONS.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </Field>
          <Field as="select" label="Robots meta" name="robots" defaultValue={value("robots", settings.seo.robots)} error={errors.robots}>
            {ROBOTS_OPTIONS.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </Field>
          <aside className="info-panel">
            <h3>Social preview caching</h3>
            <p>
              Facebook, X (Twitter) і Telegram кешують попередній перегляд посилань: нові назва, опис чи зображення з’являються там за 5–10 хвилин або після
              оновлення кешу в їхніх інструментах налагодження.
            </p>
          </aside>
        </section>

        <section role="tabpanel" id="panel-security" aria-labelledby="tab-security" hidden={tab !== "security"}>
          <h2>Security</h2>
          <aside className="info-panel">
            <h3>Security status</h3>
            <ul>
              <li>Паролі зберігаються як bcrypt-хеші.</li>
              <li>Сесії на сервері; вихід і деактивація завершують їх одразу.</li>
              <li>Політика безпеки вмісту (CSP) з nonce для скриптів.</li>
              <li>Захист від запитів з інших сайтів і блокування підбору паролів.</li>
              <li>Двофакторна перевірка входу (коди із застосунку) для кожного, хто її увімкне у своєму профілі.</li>
            </ul>
          </aside>
          <Field
            as="select"
            label="Session timeout (minutes)"
            name="session_timeout"
            defaultValue={value("session_timeout", settings.security.session_timeout)}
            error={errors.session_timeout}
          >
            {[30, 60, 120, 480].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </Field>
          <Field
            as="select"
            label="Failed-login attempts before lockout"
            name="max_login_attempts"
            defaultValue={value("max_login_attempts", settings.security.max_login_attempts)}
            error={errors.max_login_attempts}
          >
            {[3, 5, 10].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </Field>
          <Field
            as="select"
            label="Require two-factor sign-in for"
            name="two_factor_required"
            defaultValue={value("two_factor_required", settings.security.two_factor_required)}
            error={errors.two_factor_required}
            hint="Кого вхід обов'язково питає код із застосунку. Хто ще не налаштував перевірку, після пароля потрапить на її налаштування і до того не зможе нічого іншого, крім виходу (і ви теж, якщо ще не налаштували)."
          >
            {TWO_FACTOR_OPTIONS.map((option) => (
              <option key={option} value={option}>
                {TWO_FACTOR_LABELS[option]}
              </option>
            ))}
          </Field>
        </section>

        <section role="tabpanel" id="panel-integrations" aria-labelledby="tab-integrations" hidden={tab !== "integrations"}>
          <h2>Integrations</h2>
          <Field
            label="Search Console verification code"
            name="gsc_verification_code"
            defaultValue={value("gsc_verification_code", settings.integrations.gsc_verification_code)}
            error={errors.gsc_verification_code}
          />
          <Field
            label="Meta verification"
            name="gsc_meta_verification"
            defaultValue={value("gsc_meta_verification", settings.integrations.gsc_meta_verification)}
            error={errors.gsc_meta_verification}
          />
          <Field
            label="Property URL"
            name="gsc_property_url"
            type="url"
            defaultValue={value("gsc_property_url", settings.integrations.gsc_property_url)}
            error={errors.gsc_property_url}
          />
          <CheckboxField
            label="Enable analytics"
            name="analytics_enabled"
            defaultChecked={checked("analytics_enabled", settings.integrations.analytics_enabled)}
          />
          <div className="integration-cards">
            {["Google Search Console", "Google Analytics", "Bing Webmaster Tools", "Meta (Facebook)"].map((name) => (
              <div key={name} className="integration-card">
                <strong>{name}</strong>
                <span className="muted small">Не підключено</span>
              </div>
            ))}
          </div>
        </section>

        <div className="settings-footer">
          {showSaved && result ? (
            <p className={result.ok ? "flash flash-ok" : "form-error"} role={result.ok ? "status" : "alert"}>
              {result.ok ? SAVED_MESSAGE : FAILED_MESSAGE}
            </p>
          ) : null}
          <button type="submit" className="button button-primary" disabled={saving}>
            {saving ? "Saving..." : showSaved && result?.ok ? "Saved" : "Save Changes"}
          </button>
        </div>
      </div>
    </Form>
  );
}

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
