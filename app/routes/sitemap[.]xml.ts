import { xml } from "remix-utils/responses";
import { buildSitemap } from "~/services/feeds.server";

export async function loader() {
  return xml(await buildSitemap());
}
