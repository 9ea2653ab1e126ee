// The sidebar's count of comments waiting for a moderator (issue 28); nothing when none wait.
export function PendingBadge({ count }: { count: number }) {
  if (!count) return null;
  return (
    <span className="nav-badge">
      <span aria-hidden="true">{count > 99 ? "99+" : count}</span>
      <span className="visually-hidden">, очікують на модерацію: {count}</span>
    </span>
  );
}
