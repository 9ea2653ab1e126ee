import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { ImportJobs } from "~/components/admin/import-jobs";
import type { AdminHandle } from "~/components/admin/nav";
import { CheckboxField, Field } from "~/components/ui/field";
import { ImportFormError, listImportJobs, startImportJob } from "~/import/jobs.server";
import { IMPORT_MAX_BYTES, IMPORT_MEDIA_MAX_BYTES } from "~/import/limits.server";
import { isActiveRun } from "~/import/run-status";
import { requireRole } from "~/services/auth.server";
import styles from "~/styles/newsroom.css";
import { DomainError } from "~/utils/errors";
import { SCREEN_ROLES } from "~/utils/roles";

// /admin/import (issue 27, DESIGN §14; admins only): upload a WordPress, Ghost or our own export,
// the run goes on in the background with its progress in the database (a reload, or without
// JavaScript a meta refresh, shows it), then its summary; and the export of this site as a file.

const TITLE = "Імпорт і експорт";
export const handle: AdminHandle = { title: TITLE };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, SCREEN_ROLES["/admin/import"]);
  const jobs = await listImportJobs(10);
  // The run this admin just started first (another admin's younger run stays in the list).
  const asked = Number(new URL(request.url).searchParams.get("job"));
  const current = jobs.findIndex((j) => j.id === asked);
  if (current > 0) jobs.unshift(...jobs.splice(current, 1));
  return { jobs, maxMb: Math.round(IMPORT_MAX_BYTES / 1024 / 1024), mediaMaxMb: Math.round(IMPORT_MEDIA_MAX_BYTES / 1024 / 1024) };
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireRole(request, SCREEN_ROLES["/admin/import"]);
  try {
    const id = await startImportJob(request, actor);
    return redirect(`/admin/import?job=${id}`, 303);
  } catch (error) {
    // The message goes beside its field; the choices come back (a file input cannot be refilled).
    if (error instanceof DomainError)
      return data(
        { error: error.message, field: error.field === "media" ? "media" : "file", values: error instanceof ImportFormError ? error.values : null },
        { status: error.status },
      );
    throw error;
  }
}

export default function ImportScreen() {
  const { jobs, maxMb, mediaMaxMb } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const active = jobs.length > 0 && isActiveRun(jobs[0].status);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), 1500);
    return () => clearInterval(timer);
  }, [active, revalidator]);
  const busy = navigation.state === "submitting" && navigation.formAction === "/admin/import";
  const failed = result && "error" in result ? result : null;
  const values = failed?.values;
  const fileError = failed && failed.field === "file" ? failed.error : null;
  const mediaError = failed && failed.field === "media" ? failed.error : null;

  return (
    <section className="admin-card newsroom" aria-labelledby="import-title">
      {/* Without JavaScript the page reloads itself while a run is going on. */}
      {active ? <noscript dangerouslySetInnerHTML={{ __html: '<meta http-equiv="refresh" content="2">' }} /> : null}
      <h2 id="import-title">{TITLE}</h2>
      <p className="muted">
        Перенесіть архів із WordPress (Інструменти → Експорт, файл XML), Ghost (Settings → Labs → Export, файл JSON) або з іншого сайту на цій системі. Статті,
        категорії, теги, автори, зображення й старі адреси (з переадресацією 301) переносяться; повторний імпорт того самого файлу нічого не змінює.
      </p>
      <Form method="post" encType="multipart/form-data" className="form" key={result ? JSON.stringify(result) : "form"}>
        <Field as="select" label="Формат" name="format" defaultValue={values?.format ?? "auto"}>
          <option value="auto">Визначити автоматично</option>
          <option value="wordpress">WordPress (WXR, XML)</option>
          <option value="ghost">Ghost (JSON)</option>
          <option value="ours">Експорт цього сайту (JSON)</option>
        </Field>
        <Field
          label="Файл експорту"
          name="file"
          type="file"
          required
          accept=".xml,.json,application/xml,text/xml,application/json"
          hint={`До ${maxMb} МБ.`}
          error={fileError ?? undefined}
        />
        <Field
          label="Архів зображень (ZIP, необов'язково)"
          name="media"
          type="file"
          accept=".zip,application/zip,application/x-zip-compressed"
          hint={`Тека wp-content/uploads (WordPress) або content/images (Ghost), стиснута в ZIP, до ${mediaMaxMb} МБ. Зображень, яких немає в архіві, сайт шукає за адресами старого сайту, якщо він доступний.`}
          error={mediaError ?? undefined}
        />
        <CheckboxField label="Лише перевірити (нічого не записувати)" name="dry_run" value="1" defaultChecked={values?.dryRun ?? false} />
        <div>
          <button type="submit" className="button" disabled={busy}>
            {busy ? "Завантаження…" : "Імпортувати"}
          </button>
        </div>
      </Form>

      <h3>Експорт</h3>
      <p className="muted">Один файл JSON (формат science-news-export): статті, категорії, теги, автори (без паролів), список медіа й налаштування.</p>
      <Form method="post" action="/admin/import/export" reloadDocument>
        <button type="submit" className="button button-secondary">
          Завантажити експорт
        </button>
      </Form>

      <h3>Запуски імпорту</h3>
      <ImportJobs jobs={jobs} />
    </section>
  );
}
