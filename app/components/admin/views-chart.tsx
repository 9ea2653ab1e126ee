import { format, parseISO } from "date-fns";
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useHydrated } from "remix-utils/use-hydrated";
import { formatCount } from "./stat-card";

export interface DailyViews {
  date: string;
  views: number;
}

// SPEC §9: red line, stroke 2, dots 4 (active 6), about 256 px high, day/month ticks,
// tooltip 'Date: {date}' and '{n} views' under the series name 'Views'.
const HEIGHT = 256;
const STATIC_WIDTH = 720;
// A chart day is a calendar date (no time), read and shown in the same local zone.
const dayMonth = (date: string) => format(parseISO(date), "dd/MM");

// ResponsiveContainer passes the measured width and height to its direct child.
function Chart({ data, width, height }: { data: DailyViews[]; width?: number; height?: number }) {
  return (
    <LineChart data={data} width={width} height={height ?? HEIGHT} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
      <CartesianGrid strokeDasharray="3 3" stroke="#e3e5ea" />
      <XAxis dataKey="date" tickFormatter={dayMonth} tick={{ fontSize: 12 }} minTickGap={12} />
      <YAxis tick={{ fontSize: 12 }} width={48} allowDecimals={false} />
      {/* The value already says what it counts: no "Views : " prefix before "5764 views". */}
      <Tooltip labelFormatter={(date) => `Date: ${date}`} formatter={(value) => [`${value} views`, ""]} separator="" />
      <Line type="monotone" dataKey="views" name="Views" stroke="#dc2626" strokeWidth={2} dot={{ r: 4 }} activeDot={{ r: 6 }} isAnimationActive={false} />
    </LineChart>
  );
}

/**
 * The same line drawn as plain SVG: what readers without JavaScript see, and what the first client
 * render shows (recharts measures text in the DOM, so its server output cannot match hydration).
 */
function StaticChart({ data }: { data: DailyViews[] }) {
  const pad = { left: 48, right: 16, top: 12, bottom: 28 };
  const max = Math.max(1, ...data.map((d) => d.views));
  const x = (i: number) => pad.left + (i * (STATIC_WIDTH - pad.left - pad.right)) / Math.max(1, data.length - 1);
  const y = (v: number) => pad.top + (1 - v / max) * (HEIGHT - pad.top - pad.bottom);
  const points = data.map((d, i) => `${x(i).toFixed(1)},${y(d.views).toFixed(1)}`).join(" ");
  const ticks = [0, Math.floor((data.length - 1) / 2), data.length - 1];
  return (
    <svg className="static-chart" viewBox={`0 0 ${STATIC_WIDTH} ${HEIGHT}`} width="100%" height={HEIGHT} role="img" aria-label="Views per day">
      <line x1={pad.left} x2={STATIC_WIDTH - pad.right} y1={y(0)} y2={y(0)} stroke="#c9cdd6" />
      <text x={pad.left - 8} y={y(max) + 4} textAnchor="end" fontSize="12" fill="#5b6170">
        {formatCount(max)}
      </text>
      <text x={pad.left - 8} y={y(0) + 4} textAnchor="end" fontSize="12" fill="#5b6170">
        0
      </text>
      {ticks.map((i) => (
        <text key={i} x={x(i)} y={HEIGHT - 8} textAnchor="middle" fontSize="12" fill="#5b6170">
          {dayMonth(data[i].date)}
        </text>
      ))}
      <polyline points={points} fill="none" stroke="#dc2626" strokeWidth={2} />
      {data.map((d, i) => (
        <circle key={d.date} cx={x(i)} cy={y(d.views)} r={4} fill="#fff" stroke="#dc2626" strokeWidth={2} />
      ))}
    </svg>
  );
}

/**
 * The 30-day views chart: static SVG until hydrated, then recharts with its tooltip; a data table
 * carries the same figures for screen readers.
 */
export function ViewsChart({ data, caption }: { data: DailyViews[] | null | undefined; caption: string }) {
  const hydrated = useHydrated();
  if (!data?.length) return <p className="muted empty">No analytics data available</p>;
  return (
    <figure className="views-chart" aria-label={caption}>
      <div className="chart-box" aria-hidden="true">
        {hydrated ? (
          <ResponsiveContainer width="100%" height={HEIGHT}>
            <Chart data={data} />
          </ResponsiveContainer>
        ) : (
          <StaticChart data={data} />
        )}
      </div>
      <table className="visually-hidden">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Views</th>
          </tr>
        </thead>
        <tbody>
          {data.map((d) => (
            <tr key={d.date}>
              <td>{d.date}</td>
              <td>{formatCount(d.views)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
