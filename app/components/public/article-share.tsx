import { useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";

/**
 * Share links under an article (issue 17): plain links to each network's own share page, no
 * third-party script and nothing loaded until a reader clicks. "Copy link" needs the clipboard,
 * so it appears once the page runs JavaScript.
 */
export function ArticleShare({ url, title }: { url: string; title: string }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState<string | null>(null);
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(title);
  const links = [
    { name: "Telegram", href: `https://t.me/share/url?url=${u}&text=${t}` },
    { name: "Facebook", href: `https://www.facebook.com/sharer/sharer.php?u=${u}` },
    { name: "X", href: `https://x.com/intent/post?url=${u}&text=${t}` },
  ];
  return (
    <section className="article-share" aria-label="Поділитися">
      <span className="article-share-label">Поділитися:</span>
      <ul>
        {links.map((link) => (
          <li key={link.name}>
            <a href={link.href} target="_blank" rel="noopener noreferrer nofollow" aria-label={`Поділитися в ${link.name}`}>
              {link.name}
            </a>
          </li>
        ))}
        {hydrated ? (
          <li>
            <button
              type="button"
              onClick={async () => {
                try {
                  await navigator.clipboard.writeText(url);
                  setCopied("Посилання скопійовано");
                } catch {
                  setCopied("Не вдалося скопіювати посилання");
                }
              }}
            >
              Копіювати посилання
            </button>
          </li>
        ) : null}
      </ul>
      <p className="article-share-status" role="status">
        {copied}
      </p>
    </section>
  );
}
