import { txt } from "remix-utils/responses";
import { buildRobots } from "~/services/feeds.server";

export async function loader() {
  return txt(await buildRobots());
}
