/** A titled admin screen whose content a later issue fills in. */
export function AdminPlaceholder({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <section className="admin-card" aria-labelledby="screen-title">
      <h2 id="screen-title">{title}</h2>
      {children ?? <p className="muted">Цей розділ готується і з'явиться найближчим часом.</p>}
    </section>
  );
}

export function AccessDenied() {
  return (
    <section className="admin-card access-denied" role="alert">
      <h2>Access Denied</h2>
      <p>You don&apos;t have permission to access this page.</p>
    </section>
  );
}
