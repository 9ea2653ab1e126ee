import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { AdminHandle } from "~/components/admin/nav";
import { AdminPlaceholder } from "~/components/admin/placeholder";
import { requireUser } from "~/utils/auth.server";

const TITLE = "Редагування статті";

export const handle: AdminHandle = { title: TITLE };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export default function Screen() {
  return <AdminPlaceholder title={TITLE}></AdminPlaceholder>;
}

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
