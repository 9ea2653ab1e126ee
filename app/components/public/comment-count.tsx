// A card's count of approved comments (issue 28): "· 3 коментарі", nothing when there are none.

/** "1 коментар", "3 коментарі", "5 коментарів" (Ukrainian plural forms). */
export function commentCountLabel(n: number): string {
  const last = n % 10;
  const lastTwo = n % 100;
  if (last === 1 && lastTwo !== 11) return `${n} коментар`;
  if (last >= 2 && last <= 4 && (lastTwo < 12 || lastTwo > 14)) return `${n} коментарі`;
  return `${n} коментарів`;
}

export function CommentCount({ count }: { count: number | undefined }) {
  if (!count) return null;
  return (
    <>
      <span aria-hidden="true"> · </span>
      <span className="card-comments">{commentCountLabel(count)}</span>
    </>
  );
}
