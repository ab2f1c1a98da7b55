// A small inline-SVG chart of one capacity series: used as a filled area, capacity as a dashed
// line, a time axis and a value axis in human units, and a readout of the point under the pointer
// (or picked with the arrow keys). No chart library: the console bundles none on purpose.
import { type KeyboardEvent, type MouseEvent, useId, useState } from 'react';
import { amount, percent, unitFor } from '../format';
import { axisTime, niceTicks, pointTime, timeTicks } from './units';

/** One point, its time in milliseconds. */
export interface ChartPoint {
  readonly atMs: number;
  readonly capacity: number;
  readonly used: number;
  readonly utilisation: number;
}

const W = 720;
const H = 220;
const M = { left: 64, right: 16, top: 12, bottom: 28 };
const PLOT_W = W - M.left - M.right;
const PLOT_H = H - M.top - M.bottom;

/** The chart of `points` over [fromMs, toMs]. */
export function CapacityChart(props: {
  resourceClass: string;
  title: string;
  points: readonly ChartPoint[];
  fromMs: number;
  toMs: number;
  rangeHours: number;
}) {
  const { points, fromMs, toMs, resourceClass } = props;
  const [hover, setHover] = useState<number | null>(null);
  const titleId = useId();
  const max = Math.max(1, ...points.map((p) => Math.max(p.capacity, p.used)));
  // Ticks are round in the unit the largest value is written in (e.g. 0, 0.5, 1, 1.5 TiB).
  const divisor = unitFor(resourceClass, max)?.size ?? 1;
  const ticks = niceTicks(max / divisor).map((t) => t * divisor);
  const top = ticks[ticks.length - 1] ?? max;
  const span = Math.max(1, toMs - fromMs);
  const x = (ms: number) => M.left + ((ms - fromMs) / span) * PLOT_W;
  const y = (v: number) => M.top + PLOT_H - (v / top) * PLOT_H;
  // Buckets no replica sampled are absent: a gap wider than 1.5 × the usual spacing breaks the
  // lines instead of drawing a slope across it.
  const spacing = points.reduce(
    (min, p, i) => (i === 0 ? min : Math.min(min, p.atMs - points[i - 1]!.atMs)),
    Number.POSITIVE_INFINITY,
  );
  const segments: ChartPoint[][] = [];
  points.forEach((p, i) => {
    if (i === 0 || p.atMs - points[i - 1]!.atMs > spacing * 1.5) {
      segments.push([p]);
    } else {
      segments[segments.length - 1]!.push(p);
    }
  });
  const path = (seg: readonly ChartPoint[], pick: (p: ChartPoint) => number) =>
    seg
      .map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.atMs).toFixed(1)},${y(pick(p)).toFixed(1)}`)
      .join('');
  const line = (pick: (p: ChartPoint) => number) => segments.map((seg) => path(seg, pick)).join('');
  const area = segments
    .filter((seg) => seg.length > 1)
    .map(
      (seg) =>
        `${path(seg, (p) => p.used)}L${x(seg[seg.length - 1]!.atMs).toFixed(1)},${y(0)}L${x(seg[0]!.atMs).toFixed(1)},${y(0)}Z`,
    )
    .join('');
  const lonely = segments.filter((seg) => seg.length === 1).map((seg) => seg[0]!);
  const ticksAt = timeTicks(fromMs, toMs);

  const nearest = (ms: number) => {
    let best = 0;
    for (let i = 1; i < points.length; i++) {
      if (Math.abs(points[i]!.atMs - ms) < Math.abs(points[best]!.atMs - ms)) {
        best = i;
      }
    }
    return best;
  };
  const onMove = (ev: MouseEvent<HTMLDivElement>) => {
    const box = ev.currentTarget.getBoundingClientRect();
    const vx = ((ev.clientX - box.left) / box.width) * W; // in viewBox units
    const frac = (vx - M.left) / PLOT_W;
    setHover(points.length && frac >= 0 && frac <= 1 ? nearest(fromMs + frac * span) : null);
  };
  const onKey = (ev: KeyboardEvent<HTMLDivElement>) => {
    if (points.length === 0) {
      return;
    }
    const step = { ArrowLeft: -1, ArrowRight: 1, Home: -points.length, End: points.length }[ev.key];
    if (step !== undefined) {
      ev.preventDefault();
      setHover((h) => Math.max(0, Math.min(points.length - 1, (h ?? points.length - 1) + step)));
    }
  };
  const shown = hover !== null ? points[hover] : undefined;
  const readout = shown
    ? `${pointTime(shown.atMs)}: ${amount(resourceClass, shown.used)} used of ${amount(resourceClass, shown.capacity)} (${percent(shown.utilisation)})`
    : 'Point at the chart (or focus it and use the arrow keys) to read a value.';
  return (
    <figure className="chart" data-class={resourceClass}>
      <figcaption id={titleId}>{props.title}</figcaption>
      <p className="readout" aria-live="polite" data-testid="readout">
        {readout}
      </p>
      {/* A slider over the points: arrow keys or the pointer pick the point read out above. */}
      <div
        className="chart-area"
        role="slider"
        tabIndex={0}
        aria-labelledby={titleId}
        aria-valuemin={0}
        aria-valuemax={Math.max(0, points.length - 1)}
        aria-valuenow={hover ?? Math.max(0, points.length - 1)}
        aria-valuetext={shown ? readout : 'no point picked'}
        onKeyDown={onKey}
        onBlur={() => setHover(null)}
        onMouseMove={onMove}
        onMouseLeave={() => setHover(null)}
      >
        <svg viewBox={`0 0 ${W} ${H}`} aria-hidden="true">
          <title>{props.title}</title>
          {ticks.map((t) => (
            <g key={t} className="tick">
              <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} />
              <text x={M.left - 6} y={y(t)} dy="0.32em" textAnchor="end">
                {t === 0 ? '0' : amount(resourceClass, t)}
              </text>
            </g>
          ))}
          {ticksAt.map((t) => (
            <text key={t} className="tick" x={x(t)} y={H - 8} textAnchor="middle">
              {axisTime(t, props.rangeHours)}
            </text>
          ))}
          <path className="used-area" d={area} />
          <path className="used-line" d={line((p) => p.used)} />
          <path className="capacity-line" d={line((p) => p.capacity)} />
          {lonely.map((p) => (
            <circle key={p.atMs} className="used-dot" cx={x(p.atMs)} cy={y(p.used)} r={2.5} />
          ))}
          {shown && (
            <g className="hover">
              <line x1={x(shown.atMs)} x2={x(shown.atMs)} y1={M.top} y2={M.top + PLOT_H} />
              <circle cx={x(shown.atMs)} cy={y(shown.used)} r={4} />
              <circle className="cap" cx={x(shown.atMs)} cy={y(shown.capacity)} r={3} />
            </g>
          )}
          <rect className="hit" x={M.left} y={M.top} width={PLOT_W} height={PLOT_H} />
        </svg>
      </div>
      <p className="chart-legend" aria-hidden="true">
        <span className="key used" /> used <span className="key capacity" /> capacity
      </p>
    </figure>
  );
}
