import { apiError } from "~/utils/http.server";

// Any /api path without a route of its own: a JSON 404, never the HTML fallback page.
const notFound = () => apiError(404, "Не знайдено");
export const loader = notFound;
export const action = notFound;
