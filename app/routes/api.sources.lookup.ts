import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/services/auth.server";
import { LookupError, lookupDoi } from "~/services/crossref.server";
import { apiError, apiJson, apiRoute } from "~/utils/http.server";

/**
 * GET /api/sources/lookup?doi=10.NNNN/… (issue 29): a source's title, journal, year and link from
 * Crossref, for staff filling in an article's sources. 404 when lookups are off (CROSSREF_LOOKUP)
 * or the DOI is unknown, 422 for a malformed DOI, 504 when Crossref does not answer in time.
 */
export const loader = apiRoute(async ({ request }: LoaderFunctionArgs) => {
  await requireUser(request);
  const doi = new URL(request.url).searchParams.get("doi") ?? "";
  try {
    return apiJson(await lookupDoi(doi));
  } catch (error) {
    if (error instanceof LookupError) return apiError(error.status, error.message);
    throw error;
  }
});
