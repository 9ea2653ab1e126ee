/** ?page=N of a public listing; 1 for anything missing or malformed. */
export function pageParam(request: Request): number {
  const raw = new URL(request.url).searchParams.get("page");
  const page = raw && /^\d{1,6}$/.test(raw) ? Number(raw) : 1;
  return Math.max(1, page);
}
