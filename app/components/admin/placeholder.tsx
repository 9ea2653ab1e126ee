export function AccessDenied() {
  return (
    <section className="admin-card access-denied" role="alert">
      <h2>Access Denied</h2>
      <p>You don&apos;t have permission to access this page.</p>
    </section>
  );
}
