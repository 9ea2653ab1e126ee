import { useEffect, useState } from "react";
import { formatClock } from "~/utils/public-format";

/**
 * Header clock (SPEC §1, §9): rendered on the server, refreshed every 60 s in the browser. The
 * server's minute may differ from the browser's at hydration, hence suppressHydrationWarning.
 */
export function Clock({ now }: { now: string }) {
  const [date, setDate] = useState(() => new Date(now));
  useEffect(() => {
    setDate(new Date());
    const timer = setInterval(() => setDate(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  const { time, date: day } = formatClock(date);
  return (
    <span className="topbar-clock">
      <time dateTime={date.toISOString()} suppressHydrationWarning>
        <span className="topbar-time" suppressHydrationWarning>
          {time}
        </span>{" "}
        <span className="topbar-date" suppressHydrationWarning>
          {day}
        </span>
      </time>
    </span>
  );
}
