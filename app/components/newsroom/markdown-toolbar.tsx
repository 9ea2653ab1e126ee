import { useRef, type RefObject } from "react";
import { LIMITS, MESSAGES } from "~/utils/newsroom-rules";

// The editor's formatting toolbar (shown with JavaScript only): markdown around the selection of
// the text area, and an image stored in the media library at once and inserted by its URL.

interface EditorEvent {
  target: { value: string };
}
export type FieldChange = (event: EditorEvent) => void;

export function MarkdownToolbar({
  area: content,
  onText,
  onError,
}: {
  area: RefObject<HTMLTextAreaElement>;
  /** The whole new text of the area. */
  onText: (text: string) => void;
  onError: (message: string | null) => void;
}) {
  function edit(transform: (text: string, start: number, end: number) => { text: string; start: number; end: number }) {
    const area = content.current;
    if (!area) return;
    const result = transform(area.value, area.selectionStart, area.selectionEnd);
    onText(result.text);
    requestAnimationFrame(() => {
      area.focus();
      area.setSelectionRange(result.start, result.end);
    });
  }
  const wrap = (before: string, after: string, placeholder: string) =>
    edit((text, start, end) => {
      const selected = text.slice(start, end) || placeholder;
      return {
        text: text.slice(0, start) + before + selected + after + text.slice(end),
        start: start + before.length,
        end: start + before.length + selected.length,
      };
    });
  const prefixLines = (prefix: string) =>
    edit((text, start, end) => {
      const lineStart = text.lastIndexOf("\n", start - 1) + 1;
      const block = text.slice(lineStart, end) || "текст";
      const replaced = block
        .split("\n")
        .map((line) => prefix + line.replace(/^(#{1,3} |- |> )/, ""))
        .join("\n");
      return { text: text.slice(0, lineStart) + replaced + text.slice(end), start: lineStart, end: lineStart + replaced.length };
    });
  const insertAtCursor = (snippet: string) =>
    edit((text, start, end) => ({ text: text.slice(0, start) + snippet + text.slice(end), start: start + snippet.length, end: start + snippet.length }));

  const imagePicker = useRef<HTMLInputElement>(null);
  const pendingAlt = useRef("");
  async function insertImage(file: File) {
    const problem = checkImage(file);
    if (problem) return onError(problem);
    onError(null);
    try {
      // Stored in the media library right away, inserted by URL (DESIGN §8).
      const body = new FormData();
      body.append("file", file, file.name);
      const response = await fetch("/api/media", { method: "POST", body, credentials: "same-origin" });
      const result = await response.json().catch(() => null);
      const url: string | undefined = response.ok ? result?.data?.[0]?.url : undefined;
      if (!url) return onError(result?.detail ?? MESSAGES.fileReadError);
      insertAtCursor(`\n![${pendingAlt.current.replace(/[[\]]/g, "")}](${url})\n`);
    } catch {
      onError(MESSAGES.fileReadError);
    }
  }

  return (
    <div className="editor-toolbar" role="toolbar" aria-label="Форматування">
      <button type="button" onClick={() => prefixLines("# ")} aria-label="Заголовок 1">
        H1
      </button>
      <button type="button" onClick={() => prefixLines("## ")} aria-label="Заголовок 2">
        H2
      </button>
      <button type="button" onClick={() => prefixLines("### ")} aria-label="Заголовок 3">
        H3
      </button>
      <button type="button" onClick={() => wrap("**", "**", "жирний текст")} aria-label="Жирний">
        B
      </button>
      <button type="button" onClick={() => wrap("*", "*", "курсив")} aria-label="Курсив">
        <em>I</em>
      </button>
      <button
        type="button"
        aria-label="Посилання"
        onClick={() => {
          const url = window.prompt("Адреса посилання (https://…)", "https://");
          if (url) wrap("[", `](${url})`, "текст посилання");
        }}
      >
        Link
      </button>
      <button type="button" onClick={() => prefixLines("- ")} aria-label="Список">
        •
      </button>
      <button type="button" onClick={() => prefixLines("> ")} aria-label="Цитата">
        ❝
      </button>
      <button
        type="button"
        aria-label="Вставити зображення"
        onClick={() => {
          const alt = window.prompt("Опис зображення (alt-текст)");
          if (alt === null) return;
          pendingAlt.current = alt.trim() || "Image in article";
          imagePicker.current?.click();
        }}
      >
        Img
      </button>
      <input
        ref={imagePicker}
        type="file"
        accept="image/*"
        hidden
        aria-hidden="true"
        tabIndex={-1}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) void insertImage(file);
        }}
      />
    </div>
  );
}

/** SPEC §5 'Images': an image type and at most 5 MB, else the SPEC message (in Ukrainian). */
export function checkImage(file: File): string | null {
  if (!file.type.startsWith("image/")) return MESSAGES.fileNotImage;
  if (file.size > LIMITS.imageBytes) return MESSAGES.fileTooLarge;
  return null;
}

export function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}
