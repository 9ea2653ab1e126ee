import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, NavLink, Outlet, useLoaderData, useLocation, useMatches } from "@remix-run/react";
import { ADMIN_NAV, DEFAULT_SECTION_TITLE, SEO_NAV, type AdminHandle } from "~/components/admin/nav";
import { PendingBadge } from "~/components/admin/pending-badge";
import { countPendingComments } from "~/models/comment.server";
import { requireUser } from "~/services/auth.server";
import { mustEnrol } from "~/services/two-factor.server";
import { clearLocalDrafts } from "~/utils/local-drafts";
import { mayOpen } from "~/utils/roles";

export async function loader({ request }: LoaderFunctionArgs) {
  // Each screen checks its own access (requireUser/requireRole); the shell only needs to know whether
  // the person may use anything but two-factor enrolment yet (docs/decisions/023).
  const user = await requireUser(request, { enrolling: true });
  return {
    // The id keys the editor's unsaved-text copy in the browser to its author (app/utils/local-drafts.ts).
    user: { id: user.id, username: user.username, name: user.name, email: user.email, role: user.role },
    enrolOnly: await mustEnrol(user),
    // Issue 28: the sidebar's badge of comments waiting for a moderator.
    pendingComments: mayOpen(user.role, "/admin/comments") ? await countPendingComments() : 0,
  };
}

export default function AdminLayout() {
  const { user, enrolOnly, pendingComments } = useLoaderData<typeof loader>();
  const matches = useMatches();
  const location = useLocation();
  const handle = [...matches].reverse().find((m) => (m.handle as AdminHandle | undefined)?.title)?.handle as AdminHandle | undefined;
  const title = handle?.title ?? DEFAULT_SECTION_TITLE;
  const displayName = user.name || user.username;
  const initial = (displayName || "A").charAt(0).toUpperCase() || "A";
  const inSeo = location.pathname.startsWith("/admin/seo");

  return (
    <div className="admin">
      <a className="skip-link" href="#admin-main">
        Перейти до основного вмісту
      </a>
      <aside className="admin-sidebar">
        <a className="admin-brand" href="/">
          Наука UA
        </a>
        <nav aria-label="Адмін-меню">
          <ul>
            {ADMIN_NAV.filter((item) => !enrolOnly && mayOpen(user.role, item.to)).map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} prefetch="intent">
                  {item.label}
                  {item.to === "/admin/comments" ? <PendingBadge count={pendingComments} /> : null}
                </NavLink>
              </li>
            ))}
            {!enrolOnly && mayOpen(user.role, SEO_NAV.to) ? (
              <li>
                <details className="nav-group" open={inSeo}>
                  <summary>{SEO_NAV.group}</summary>
                  <ul>
                    <li>
                      <NavLink to={SEO_NAV.to}>{SEO_NAV.label}</NavLink>
                    </li>
                  </ul>
                </details>
              </li>
            ) : null}
          </ul>
        </nav>
      </aside>
      <div className="admin-body">
        <header className="admin-header">
          <h1 className="admin-title">{title}</h1>
          <div className="admin-user">
            <span className="welcome">Вітаємо, {displayName}!</span>
            <details className="avatar-menu">
              <summary aria-label={`Меню користувача ${displayName}`}>
                <span className="avatar" aria-hidden="true">
                  {initial}
                </span>
              </summary>
              <div className="avatar-menu-panel">
                <p className="avatar-name">{displayName}</p>
                <p className="avatar-email" title={user.email}>
                  {user.email}
                </p>
                {enrolOnly ? null : (
                  <Link to="/admin/profile" className="avatar-menu-link">
                    Мій профіль
                  </Link>
                )}
                {/* Signing out removes the editor's kept text from this browser (issue 25). */}
                <Form method="post" action="/admin/logout" onSubmit={clearLocalDrafts}>
                  <button type="submit" className="button button-secondary">
                    Вийти
                  </button>
                </Form>
              </div>
            </details>
          </div>
        </header>
        <main id="admin-main" className="admin-main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Admin Panel — Наука UA" }, { name: "robots", content: "noindex" }];
