import { getEnv } from "../utils/env.server";
import { DomainError } from "../utils/errors";
import { normaliseDoi, SCIENCE_MESSAGES, type SourceKind } from "../utils/science-rules";

// Issue 29 item 5: the optional Crossref lookup (CROSSREF_LOOKUP=1). The editor's "Заповнити з
// Crossref" asks GET /api/sources/lookup?doi=…, which asks `${CROSSREF_URL}/works/{doi}` with a
// timeout. Nothing is saved by a lookup: it fills the editor's row, which the writer then saves.

export const CROSSREF_MESSAGES = {
  off: "Пошук джерел у Crossref вимкнено (CROSSREF_LOOKUP=1 вмикає його)",
  notFound: "Crossref не знає такого DOI: заповніть джерело вручну",
  timeout: "Crossref не відповів вчасно: спробуйте пізніше або заповніть джерело вручну",
  failed: "Crossref зараз недоступний: заповніть джерело вручну",
} as const;

export interface CrossrefSource {
  doi: string;
  kind: SourceKind;
  title: string;
  publisher: string | null;
  year: number | null;
  peer_reviewed: boolean | null;
  url: string | null;
}

export const crossrefEnabled = () => getEnv().CROSSREF_LOOKUP === "1";

const first = (v: unknown) =>
  (Array.isArray(v) ? v.find((x) => typeof x === "string" && x.trim()) : typeof v === "string" ? v : undefined) as string | undefined;

/** A Crossref `/works/{doi}` message as a source row. */
export function fromCrossref(doi: string, message: Record<string, unknown>): CrossrefSource {
  const type = String(message.type ?? "");
  const parts = (message.issued as { "date-parts"?: unknown[][] } | undefined)?.["date-parts"]?.[0]?.[0];
  const year = typeof parts === "number" && parts >= 1600 && parts <= 3000 ? parts : null;
  const kind: SourceKind =
    type === "dataset"
      ? "dataset"
      : type === "report" || type === "report-component"
        ? "report"
        : type.startsWith("journal") || type === "posted-content" || type.startsWith("proceedings")
          ? "study"
          : "other";
  const peer = type === "posted-content" ? false : type === "journal-article" ? true : null;
  const url = first(message.URL);
  return {
    doi,
    kind,
    title: (first(message.title) ?? "").replace(/\s+/g, " ").trim().slice(0, 500),
    publisher: (first(message["container-title"]) ?? first(message.institution) ?? first(message.publisher) ?? null)?.slice(0, 300) ?? null,
    year,
    peer_reviewed: peer,
    url: url && /^https?:\/\//i.test(url) ? url : `https://doi.org/${doi}`,
  };
}

/** Looks a DOI up in Crossref; 422 for a malformed DOI, 404 unknown or off, 504 past the timeout, 502 otherwise. */
export async function lookupDoi(raw: string): Promise<CrossrefSource> {
  const env = getEnv();
  if (env.CROSSREF_LOOKUP !== "1") throw new DomainError(404, CROSSREF_MESSAGES.off);
  const doi = normaliseDoi(raw);
  if (!doi) throw new DomainError(422, SCIENCE_MESSAGES.doi, "doi");
  const url = `${env.CROSSREF_URL.replace(/\/+$/, "")}/works/${encodeURIComponent(doi)}`;
  let response: Response;
  try {
    response = await fetch(url, { headers: { Accept: "application/json" }, signal: AbortSignal.timeout(env.CROSSREF_TIMEOUT_MS), redirect: "follow" });
  } catch (error) {
    const name = (error as Error)?.name;
    if (name === "TimeoutError" || name === "AbortError") throw new LookupError(504, CROSSREF_MESSAGES.timeout);
    throw new LookupError(502, CROSSREF_MESSAGES.failed);
  }
  if (response.status === 404) throw new DomainError(404, CROSSREF_MESSAGES.notFound);
  if (!response.ok) throw new LookupError(502, CROSSREF_MESSAGES.failed);
  let body: { message?: Record<string, unknown> };
  try {
    body = (await response.json()) as typeof body;
  } catch (error) {
    if ((error as Error)?.name === "TimeoutError") throw new LookupError(504, CROSSREF_MESSAGES.timeout);
    throw new LookupError(502, CROSSREF_MESSAGES.failed);
  }
  if (!body?.message || typeof body.message !== "object") throw new LookupError(502, CROSSREF_MESSAGES.failed);
  return fromCrossref(doi, body.message);
}

/** An upstream failure (502, 504): not the client's fault, not one of DomainError's statuses. */
export class LookupError extends Error {
  constructor(
    readonly status: 502 | 504,
    message: string,
  ) {
    super(message);
    this.name = "LookupError";
  }
}
