import { Form, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import type { MediaItem } from "~/models/media.server";
import type { Rejection } from "~/services/upload.server";
import type { FormFailure } from "~/utils/forms";
import { variantUrl } from "~/utils/media-url";

// The media screen's upload tab: drop zone or file picker; without JavaScript a plain multipart form.

export interface UploadResult {
  intent: "upload";
  stored: MediaItem[];
  rejected: Rejection[];
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const thumb = (url: string) => variantUrl(url, 400) ?? url;

type Uploaded = { item: MediaItem } | { rejected: { name: string; reason: string } };

/** The upload tab: drop zone or file picker; without JavaScript a plain multipart form. */
export function UploadTab({ actionData, onCopy }: { actionData?: UploadResult & Partial<FormFailure>; onCopy: (url: string) => void }) {
  const [results, setResults] = useState<Uploaded[]>(() => [
    ...(actionData?.stored ?? []).map((item) => ({ item })),
    ...(actionData?.rejected ?? []).map((r) => ({ rejected: { name: r.name, reason: r.reason } })),
  ]);
  const [uploading, setUploading] = useState(false);
  const [dragging, setDragging] = useState(false);
  const hydrated = useHydrated();
  const input = useRef<HTMLInputElement>(null);
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  useEffect(() => {
    if (!actionData) return;
    setResults([...actionData.stored.map((item) => ({ item })), ...actionData.rejected.map((r) => ({ rejected: { name: r.name, reason: r.reason } }))]);
  }, [actionData]);

  async function upload(files: File[]) {
    if (files.length === 0) return;
    setUploading(true);
    let failed = false;
    for (const file of files) {
      const body = new FormData();
      body.append("files", file, file.name);
      try {
        const res = await fetch("/api/media", { method: "POST", body, credentials: "same-origin" });
        const json = await res.json().catch(() => null);
        if (!json) throw new Error("bad response");
        const stored: MediaItem[] = json.data ?? [];
        const rejected: { name: string; reason: string }[] = json.rejected ?? (res.ok ? [] : [{ name: file.name, reason: json.detail }]);
        setResults((r) => [...stored.map((item) => ({ item })), ...rejected.map((x) => ({ rejected: x })), ...r]);
      } catch {
        failed = true;
      }
    }
    setUploading(false);
    revalidator.revalidate();
    if (failed) window.alert("Upload failed. Please try again.");
  }

  async function remove(item: MediaItem) {
    const res = await fetch(`/api/media/${item.id}`, { method: "DELETE", credentials: "same-origin" });
    if (res.ok || res.status === 404) {
      setResults((r) => r.filter((x) => !("item" in x) || x.item.id !== item.id));
      revalidator.revalidate();
    }
  }

  const busy = uploading || (navigation.state === "submitting" && navigation.formEncType === "multipart/form-data");

  return (
    <div className="media-upload">
      <Form method="post" encType="multipart/form-data" replace preventScrollReset>
        <div
          className={`dropzone${dragging ? " is-dragging" : ""}${busy ? " is-busy" : ""}`}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(event) => {
            event.preventDefault();
            setDragging(false);
            void upload(Array.from(event.dataTransfer.files));
          }}
          onClick={(event) => {
            if (hydrated && event.target === event.currentTarget) input.current?.click();
          }}
          aria-busy={busy}
          // A mouse convenience around the labelled file input, which is the control for keyboards.
          role="presentation"
        >
          <p className="dropzone-title">{busy ? "Uploading..." : dragging ? "Drop the images here!" : "Drag & drop images here, or click to select"}</p>
          <label htmlFor="media-files" className={hydrated ? "button button-primary" : "dropzone-label"}>
            Choose images
          </label>
          <input
            ref={input}
            id="media-files"
            type="file"
            name="files"
            multiple
            accept="image/jpeg,image/png,image/gif,image/webp"
            className={hydrated ? "visually-hidden" : undefined}
            onChange={(event) => {
              if (!hydrated) return;
              const files = Array.from(event.currentTarget.files ?? []);
              event.currentTarget.value = "";
              void upload(files);
            }}
          />
          <p className="muted small">Supports: JPG, PNG, GIF, WebP up to 5MB</p>
          {hydrated ? null : (
            <button type="submit" className="button button-primary">
              Upload
            </button>
          )}
        </div>
      </Form>
      {actionData?.formError ? (
        <p className="form-error" role="alert">
          {actionData.formError}
        </p>
      ) : null}

      {results.length > 0 ? (
        <ul className="upload-results" aria-label="Uploaded images">
          {results.map((result, index) =>
            "item" in result ? (
              <li key={result.item.id} className="upload-result">
                <img src={thumb(result.item.url)} alt="" width={64} height={64} />
                <span className="media-name">{result.item.name}</span>
                <span className="muted small">
                  {kb(result.item.size)} · {result.item.dimensions}
                </span>
                <button
                  type="button"
                  className="button button-secondary button-small"
                  onClick={() => onCopy(result.item.url)}
                  aria-label={`Copy URL of ${result.item.name}`}
                >
                  Copy URL
                </button>
                {hydrated ? (
                  <button
                    type="button"
                    className="button button-danger button-small"
                    onClick={() => void remove(result.item)}
                    aria-label={`Remove ${result.item.name}`}
                  >
                    Remove
                  </button>
                ) : (
                  <Form method="post">
                    <input type="hidden" name="intent" value="delete" />
                    <input type="hidden" name="ids" value={result.item.id} />
                    <button type="submit" className="button button-danger button-small" aria-label={`Remove ${result.item.name}`}>
                      Remove
                    </button>
                  </Form>
                )}
              </li>
            ) : (
              <li key={`r${index}`} className="upload-result upload-rejected" role="alert">
                {result.rejected.reason}
              </li>
            ),
          )}
        </ul>
      ) : null}
    </div>
  );
}

export { AdminErrorBoundary as ErrorBoundary } from "~/components/admin/error-boundary";
