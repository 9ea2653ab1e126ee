import { Link, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { Clock } from "./clock";

/** A link of the header or footer menu (app/models/menu.server.ts `PublicLink`). */
export interface MenuLink {
  label: string;
  href: string;
  /** Another site's https address: a plain link, not a client-side navigation. */
  external: boolean;
}

/**
 * The menu's links, the current section marked as NavLink marks it (class "active" and
 * aria-current="page"). Plain Links read the header's one location: a NavLink matches its path
 * afresh for each of the menu's 18 links on every render (issue 16, cold renders).
 */
function MenuLinks({ links, pathname, onChoose }: { links: MenuLink[]; pathname: string; onChoose?: () => void }) {
  const current = pathname.toLowerCase();
  const link = ({ href: to, label: name, external }: MenuLink) => {
    if (external)
      return (
        <a href={to} rel="noopener" onClick={onChoose}>
          {name}
        </a>
      );
    // "/" only for itself (NavLink's `end`); a section also for the paths below it.
    const section = to.toLowerCase();
    const active = current === section || (section !== "/" && current.startsWith(`${section}/`));
    return (
      <Link to={to} prefetch="intent" onClick={onChoose} className={active ? "active" : undefined} aria-current={active ? "page" : undefined}>
        {name}
      </Link>
    );
  };
  return (
    <ul>
      {links.map((l, i) => (
        <li key={`${i}:${l.href}`}>{link(l)}</li>
      ))}
    </ul>
  );
}

/**
 * Top bar, logo and menus (SPEC §2 'Header and footer'; the links come from /admin/menu, issue 31
 * item 5). The mobile menu is a <details>: it opens
 * and closes without JavaScript; with JavaScript it also closes when a link is chosen.
 */
export function SiteHeader({ siteTitle, menu, now }: { siteTitle: string; menu: MenuLink[]; now: string }) {
  const mobile = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  const close = () => {
    if (mobile.current) mobile.current.open = false;
  };
  useEffect(close, [location.pathname, location.search]);
  // Issue 31 item 18: Escape closes the phone menu and gives focus back to its button.
  useEffect(() => {
    const details = mobile.current;
    if (!details) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !details.open) return;
      details.open = false;
      details.querySelector("summary")?.focus();
    };
    details.addEventListener("keydown", onKey);
    return () => details.removeEventListener("keydown", onKey);
  }, []);

  return (
    <header className="site-header">
      <div className="topbar">
        <div className="container topbar-inner">
          <div className="topbar-left">
            <button type="button" className="topbar-lang" aria-label="Мова: українська" aria-pressed="true">
              UA
            </button>
            <Clock now={now} />
            <span className="topbar-marker" title="Температура">
              Київ °C
            </span>
            <span className="topbar-marker" title="Курс валют">
              USD/UAH
            </span>
          </div>
          <div className="topbar-right">
            <span className="topbar-live">
              <span className="live-dot" aria-hidden="true" /> Прямий ефір
            </span>
            <Link to="/search" className="topbar-search" prefetch="intent">
              <span aria-hidden="true">⌕</span> Пошук
            </Link>
          </div>
        </div>
      </div>
      <div className="container masthead">
        <Link to="/" className="logo" aria-label={`${siteTitle} — на головну`}>
          <span className="logo-mark" aria-hidden="true">
            Н
          </span>
          <span className="logo-text">{siteTitle}</span>
        </Link>
        <details className="mobile-menu" ref={mobile}>
          <summary className="mobile-menu-toggle">
            <span className="burger" aria-hidden="true" />
            <span>Меню</span>
          </summary>
          <nav aria-label="Мобільне меню" className="mobile-nav">
            <MenuLinks links={menu} pathname={location.pathname} onChoose={close} />
          </nav>
        </details>
      </div>
      <nav aria-label="Головне меню" className="main-nav">
        <div className="container">
          <MenuLinks links={menu} pathname={location.pathname} />
        </div>
      </nav>
    </header>
  );
}
