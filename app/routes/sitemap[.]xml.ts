import { xml } from "remix-utils/responses";
import { buildSitemap } from "~/utils/feeds.server";

export async function loader() {
  return xml(await buildSitemap());
}
