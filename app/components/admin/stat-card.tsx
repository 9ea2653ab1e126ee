const number = new Intl.NumberFormat("en-US");

/** A figure with thousands separators (SPEC §2 'Dashboard'); missing values show 0. */
export function StatCard({ label, value }: { label: string; value: number | null | undefined }) {
  return (
    <div className="stat-card">
      <p className="stat-label">{label}</p>
      <p className="stat-value">{number.format(value ?? 0)}</p>
    </div>
  );
}

export const formatCount = (n: number | null | undefined) => number.format(n ?? 0);
