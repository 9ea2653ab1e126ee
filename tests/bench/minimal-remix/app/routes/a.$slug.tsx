import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { articleBySlug } from "../db.server";

export async function loader({ params }: LoaderFunctionArgs) {
  const row = articleBySlug(params.slug ?? "");
  if (!row) throw new Response("Not found", { status: 404 });
  return json(row);
}

export default function Article() {
  const { title, content_html } = useLoaderData<typeof loader>();
  return (
    <article>
      <h1>{title}</h1>
      <div dangerouslySetInnerHTML={{ __html: content_html }} />
    </article>
  );
}
