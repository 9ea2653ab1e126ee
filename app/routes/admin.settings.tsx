import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import type { AdminHandle } from "~/components/admin/nav";
import {
  getSiteSettings,
  parseSettingsForm,
  saveSiteSettings,
  type SettingsErrors,
} from "~/models/settings.server";
import { requireRole } from "~/services/auth.server";
import { LANGUAGE_OPTIONS, ROBOTS_OPTIONS } from "~/utils/settings-options";

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
  site_url: "general", admin_email: "general", maintenance_mode: "general",
  posts_per_page: "content", allow_comments: "content", moderation_required: "content",
  site_title: "seo", site_description: "seo", site_keywords: "seo", og_image: "seo", twitter_handle: "seo", language: "seo", robots: "seo", canonical_url: "seo",
  session_timeout: "security", max_login_attempts: "security",
  gsc_verification_code: "integrations", gsc_meta_verification: "integrations", gsc_property_url: "integrations", analytics_enabled: "integrations",
};

const SAVED_MESSAGE = "Налаштування збережено. Соціальні мережі покажуть зміни за 5–10 хвилин.";
const FAILED_MESSAGE = "Ошибка при сохранении настроек. Попробуйте еще раз.";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ["admin"]);
  return { settings: await getSiteSettings() };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireRole(request, ["admin"]);
  const result = parseSettingsForm(await request.formData());
  if (!result.ok) return data({ ok: false as const, errors: result.errors, savedAt: null }, { status: 422 });
  await saveSiteSettings(result.settings);
  return { ok: true as const, errors: {} as SettingsErrors, savedAt: Date.now() };
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
  const errors: SettingsErrors = result?.errors ?? {};
  const saving = navigation.state === "submitting";

  // After a save: 'Saved' and the message for 5 s (SPEC §4); after a failure, open its tab.
  useEffect(() => {
    if (!result) return;
    if (!result.ok) {
      const first = Object.keys(result.errors)[0];
      if (first && FIELD_TAB[first]) setTab(FIELD_TAB[first]);
    }
    const timer = setTimeout(() => setExpired(result), 5_000);
    return () => clearTimeout(timer);
  }, [result]);

  const error = (name: string) =>
    errors[name] ? (
      <p id={`${name}-error`} className="field-error">
        {errors[name]}
      </p>
    ) : null;
  const invalid = (name: string) => (errors[name] ? { "aria-invalid": true, "aria-describedby": `${name}-error` } : {});

  return (
    <Form method="post" className="settings" noValidate>
      <nav className="settings-tabs" role="tablist" aria-label="Розділи налаштувань">
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
      </nav>

      <div className="settings-body admin-card">
        <section role="tabpanel" id="panel-general" aria-labelledby="tab-general" hidden={tab !== "general"}>
          <h2>General</h2>
          <p className="muted small">Назву та опис сайту змінюють на вкладці SEO.</p>
          <div className="field">
            <label htmlFor="site_url">Site URL</label>
            <input id="site_url" name="site_url" type="url" defaultValue={settings.general.site_url} placeholder="https://nauka-ua.example" {...invalid("site_url")} />
            {error("site_url")}
          </div>
          <div className="field">
            <label htmlFor="admin_email">Admin email</label>
            <input id="admin_email" name="admin_email" type="email" defaultValue={settings.general.admin_email} {...invalid("admin_email")} />
            {error("admin_email")}
          </div>
          <div className="field field-checkbox">
            <label>
              <input type="checkbox" name="maintenance_mode" defaultChecked={settings.general.maintenance_mode} /> Maintenance mode
            </label>
            <p className="muted small">Публічний сайт відповідає сторінкою «технічні роботи» (503); персонал, що увійшов, бачить сайт.</p>
          </div>
        </section>

        <section role="tabpanel" id="panel-content" aria-labelledby="tab-content" hidden={tab !== "content"}>
          <h2>Content</h2>
          <div className="field">
            <label htmlFor="posts_per_page">Posts per page</label>
            <select id="posts_per_page" name="posts_per_page" defaultValue={String(settings.content.posts_per_page)}>
              {[10, 15, 20, 25, 30].map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </div>
          <div className="field field-checkbox">
            <label>
              <input type="checkbox" name="allow_comments" defaultChecked={settings.content.allow_comments} /> Allow comments
            </label>
          </div>
          <div className="field field-checkbox">
            <label>
              <input type="checkbox" name="moderation_required" defaultChecked={settings.content.moderation_required} /> Require comment moderation
            </label>
          </div>
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
          <div className="field">
            <label htmlFor="site_title">Site name *</label>
            <input id="site_title" name="site_title" required defaultValue={settings.seo.site_title} {...invalid("site_title")} />
            {error("site_title")}
          </div>
          <div className="field">
            <label htmlFor="canonical_url">Canonical URL</label>
            <input id="canonical_url" name="canonical_url" type="url" defaultValue={settings.seo.canonical_url} {...invalid("canonical_url")} />
            {error("canonical_url")}
          </div>
          <div className="field">
            <label htmlFor="site_description">Description *</label>
            <textarea id="site_description" name="site_description" rows={3} required defaultValue={settings.seo.site_description} {...invalid("site_description")} />
            {error("site_description")}
          </div>
          <div className="field">
            <label htmlFor="site_keywords">Keywords (comma separated)</label>
            <input id="site_keywords" name="site_keywords" defaultValue={settings.seo.site_keywords} {...invalid("site_keywords")} />
            {error("site_keywords")}
          </div>
          <div className="field">
            <label htmlFor="og_image">Open Graph image URL (recommended 1200x630)</label>
            <input id="og_image" name="og_image" type="url" defaultValue={settings.seo.og_image} {...invalid("og_image")} />
            {error("og_image")}
          </div>
          <div className="field">
            <label htmlFor="twitter_handle">Twitter handle</label>
            <input id="twitter_handle" name="twitter_handle" defaultValue={settings.seo.twitter_handle} placeholder="@nauka_ua" {...invalid("twitter_handle")} />
            {error("twitter_handle")}
          </div>
          <div className="field">
            <label htmlFor="language">Site language</label>
            <select id="language" name="language" defaultValue={settings.seo.language}>
              {LANGUAGE_OPTIONS.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="robots">Robots meta</label>
            <select id="robots" name="robots" defaultValue={settings.seo.robots}>
              {ROBOTS_OPTIONS.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </div>
          <aside className="info-panel">
            <h3>Social preview caching</h3>
            <p>Facebook, X (Twitter) і Telegram кешують попередній перегляд посилань: нові назва, опис чи зображення з'являються там за 5–10 хвилин або після оновлення кешу в їхніх інструментах налагодження.</p>
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
            </ul>
          </aside>
          <div className="field">
            <label htmlFor="session_timeout">Session timeout (minutes)</label>
            <select id="session_timeout" name="session_timeout" defaultValue={String(settings.security.session_timeout)}>
              {[30, 60, 120, 480].map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="max_login_attempts">Failed-login attempts before lockout</label>
            <select id="max_login_attempts" name="max_login_attempts" defaultValue={String(settings.security.max_login_attempts)}>
              {[3, 5, 10].map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </div>
        </section>

        <section role="tabpanel" id="panel-integrations" aria-labelledby="tab-integrations" hidden={tab !== "integrations"}>
          <h2>Integrations</h2>
          <div className="field">
            <label htmlFor="gsc_verification_code">Search Console verification code</label>
            <input id="gsc_verification_code" name="gsc_verification_code" defaultValue={settings.integrations.gsc_verification_code} {...invalid("gsc_verification_code")} />
            {error("gsc_verification_code")}
          </div>
          <div className="field">
            <label htmlFor="gsc_meta_verification">Meta verification</label>
            <input id="gsc_meta_verification" name="gsc_meta_verification" defaultValue={settings.integrations.gsc_meta_verification} {...invalid("gsc_meta_verification")} />
            {error("gsc_meta_verification")}
          </div>
          <div className="field">
            <label htmlFor="gsc_property_url">Property URL</label>
            <input id="gsc_property_url" name="gsc_property_url" type="url" defaultValue={settings.integrations.gsc_property_url} {...invalid("gsc_property_url")} />
            {error("gsc_property_url")}
          </div>
          <div className="field field-checkbox">
            <label>
              <input type="checkbox" name="analytics_enabled" defaultChecked={settings.integrations.analytics_enabled} /> Enable analytics
            </label>
          </div>
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
