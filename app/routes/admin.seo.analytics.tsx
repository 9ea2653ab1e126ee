import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { AdminHandle } from "~/components/admin/nav";
import { AdminPlaceholder } from "~/components/admin/placeholder";
import { requireRole } from "~/utils/auth.server";

const TITLE = "SEO аналітика";

export const handle: AdminHandle = { title: TITLE };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ["admin", "editor"]);
  return null;
}

export default function Screen() {
  return <AdminPlaceholder title={TITLE}></AdminPlaceholder>;
}

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
