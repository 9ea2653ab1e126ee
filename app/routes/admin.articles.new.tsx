import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import type { AdminHandle } from "~/components/admin/nav";
import { ArticleEditor } from "~/components/newsroom/article-editor";
import { ScienceFields } from "~/components/newsroom/science-fields";
import { bylineEditorData } from "~/models/bylines.server";
import { listCategoryChoices } from "~/models/category.server";
import { issueFormToken } from "~/models/form-token.server";
import { handleEditorAction, type EditorValues } from "~/services/article-form.server";
import { requireUser } from "~/services/auth.server";
import { crossrefEnabled } from "~/services/crossref.server";
import { takeFlash } from "~/services/flash.server";
import { savedScienceValues } from "~/services/science-form.server";
import styles from "~/styles/newsroom.css";
import { warmCpuPool } from "~/utils/cpu-pool.server";

const TITLE = "Нова стаття";

export const handle: AdminHandle = { title: TITLE };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

const EMPTY: EditorValues = {
  title: "",
  subtitle: "",
  content: "",
  status: "draft",
  category_id: "",
  tags: "",
  featured_image: "",
  featured_image_alt: "",
  featured_image_caption: "",
  slug: "",
  seo_title: "",
  seo_description: "",
  version: "",
};

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  warmCpuPool(); // the save renders markdown in the CPU worker: it loads while the piece is written
  const [categories, { flash, headers }] = await Promise.all([listCategoryChoices(), takeFlash(request)]);
  const bylines = { ...(await bylineEditorData({ actor: user })), noindex: false }; // issue 29
  return data(
    {
      categories,
      canPublish: user.role !== "reporter",
      flash,
      crossref: crossrefEnabled(),
      science: savedScienceValues(null),
      bylines,
      formToken: issueFormToken(),
    },
    { headers },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUser(request);
  return handleEditorAction({ request, actor, context });
}

export default function NewArticle() {
  const { categories, canPublish, flash, crossref, science, formToken } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <ArticleEditor
      mode="new"
      saved={EMPTY}
      result={result}
      categories={categories}
      canPublish={canPublish}
      flash={flash}
      draftKey={"new"}
      publicUrl={null}
      science={<ScienceFields values={result?.science ?? science} published={false} errors={result?.errors ?? {}} crossref={crossref} />}
      formToken={formToken}
    />
  );
}

export const meta: MetaFunction = () => [{ title: `${TITLE} — Admin Panel` }];

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
