import { getSettings } from "../models/settings.server";
import { getEnv } from "../utils/env.server";

// What every public page needs from the settings (issue 5: settings take effect on public pages).
// Settings reads are cached in process (settings.server.ts), so this costs no query per request.

export interface PublicSite {
  title: string;
  description: string;
  keywords: string;
  /** Absolute origin for canonical, Open Graph, sitemap and RSS links, without a trailing slash. */
  baseUrl: string;
  ogImage: string;
  twitter: string;
  language: string;
  robots: string;
}

/** The canonical base URL: the SEO canonical_url setting, else PUBLIC_URL. */
export async function getBaseUrl(): Promise<string> {
  const seo = await getSettings("seo");
  return (seo.canonical_url || getEnv().PUBLIC_URL).replace(/\/+$/, "");
}

export async function getPublicSite(): Promise<PublicSite> {
  const seo = await getSettings("seo");
  const baseUrl = await getBaseUrl();
  const handle = seo.twitter_handle ? `@${seo.twitter_handle.replace(/^@/, "")}` : "";
  return {
    title: seo.site_title,
    description: seo.site_description,
    keywords: seo.site_keywords,
    baseUrl,
    ogImage: seo.og_image || `${baseUrl}/images/fallback.jpg`,
    twitter: handle,
    language: seo.language,
    robots: seo.robots,
  };
}

/**
 * Verification meta tags for the home page (Integrations tab). The code field is Google's
 * `google-site-verification` value; the meta field accepts either a bare value or the whole
 * `<meta name="..." content="...">` tag Search Console hands out, of which only a safe name and
 * the content are kept.
 */
export async function getVerificationMeta(): Promise<{ name: string; content: string }[]> {
  const { gsc_verification_code, gsc_meta_verification } = await getSettings("integrations");
  const tags: { name: string; content: string }[] = [];
  if (gsc_verification_code) tags.push({ name: "google-site-verification", content: gsc_verification_code });
  if (gsc_meta_verification) {
    const content = /content\s*=\s*["']([^"']*)["']/i.exec(gsc_meta_verification)?.[1];
    const name = /name\s*=\s*["']([A-Za-z0-9_.:-]+)["']/i.exec(gsc_meta_verification)?.[1];
    const tag =
      content !== undefined ? { name: name ?? "google-site-verification", content } : { name: "google-site-verification", content: gsc_meta_verification };
    if (tag.content && !tags.some((t) => t.name === tag.name && t.content === tag.content)) tags.push(tag);
  }
  return tags;
}
