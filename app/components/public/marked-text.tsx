/** Text with search matches marked by \u0001…\u0002 (from FTS5), rendered as <mark> without raw HTML. */
export function MarkedText({ text }: { text: string }) {
  const parts = text.split(/(\u0001[^\u0001\u0002]*\u0002)/);
  return (
    <>
      {parts.map((part, i) =>
        part.startsWith("\u0001") && part.endsWith("\u0002") ? <mark key={i}>{part.slice(1, -1)}</mark> : part.replace(/[\u0001\u0002]/g, ""),
      )}
    </>
  );
}
