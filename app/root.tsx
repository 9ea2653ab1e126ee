import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Links, LiveReload, Meta, Outlet, Scripts, ScrollRestoration, useRouteError, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import styles from "./styles/app.css";
import { useNonce } from "./utils/nonce";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.ico" },
];

export const meta: MetaFunction = () => [
  { title: "Наука UA — новини науки і технологій" },
  { name: "description", content: "Новини науки, технологій, медицини та космосу українською." },
];

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  // Public pages take their language from the SEO settings (issue 5); the admin stays Ukrainian.
  const publicData = useRouteLoaderData<{ site?: { language?: string } }>("routes/_public");
  return (
    <html lang={publicData?.site?.language ?? "uk"}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* Public pages follow the system's dark scheme (issue 17); the admin stays light. */}
        {publicData ? <meta name="color-scheme" content="light dark" /> : null}
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
        {/* Renders nothing in production; reloads the page under `npm run dev`. */}
        <LiveReload nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // 503: the database was busy (server.ts maps SQLITE_BUSY); its text is meant for people.
  const busy = isRouteErrorResponse(error) && error.status === 503 && typeof error.data === "string" ? error.data : undefined;
  return (
    <main id="main" className="error-page">
      <h1>{notFound ? "Сторінку не знайдено" : busy ? "Сервер тимчасово зайнятий" : "Error"}</h1>
      <p>
        {notFound ? "Такої сторінки немає. Можливо, її видалили або адресу введено з помилкою." : (busy ?? "Щось пішло не так. Спробуйте оновити сторінку.")}
      </p>
      <p>
        <a href="/">На головну</a>
      </p>
    </main>
  );
}
