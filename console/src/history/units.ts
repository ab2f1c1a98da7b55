// The history charts' scales: round value ticks, round time ticks, and the time labels of the
// axes and readouts (amounts themselves are written by ../format.ts, as on every page).

/** Up to `count` + 1 round tick values from 0 to at least `max`. */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) {
    return [0, 1];
  }
  const raw = max / count;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * pow).find((s) => s >= raw) ?? 10 * pow;
  const ticks: number[] = [];
  for (let v = 0; v < max + step * 0.999; v += step) {
    ticks.push(Number(v.toPrecision(12)));
  }
  return ticks;
}

const TIME = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' });
const FULL = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});

/** An axis label: "14:05" for ranges up to a day, "27 Nov" beyond. */
export function axisTime(ms: number, rangeHours: number): string {
  return rangeHours <= 24 ? TIME.format(ms) : DAY.format(ms);
}

const HOUR = 3_600_000;
const STEPS = [1, 2, 3, 4, 6, 12, 24, 48, 72, 168].map((h) => h * HOUR);

/** Round times (whole hours, or local midnights) for the time axis of [fromMs, toMs]. */
export function timeTicks(fromMs: number, toMs: number, most = 7): number[] {
  const step = STEPS.find((s) => (toMs - fromMs) / s <= most) ?? STEPS[STEPS.length - 1]!;
  // Align to the local clock: whole hours, and midnights for steps of a day or more.
  const offset = -new Date(fromMs).getTimezoneOffset() * 60_000;
  const first = Math.ceil((fromMs + offset) / step) * step - offset;
  const ticks: number[] = [];
  for (let t = first; t <= toMs; t += step) {
    ticks.push(t);
  }
  return ticks;
}

/** A point's time in the readout and table: "27 Nov, 14:05". */
export function pointTime(ms: number): string {
  return FULL.format(ms);
}

/** "5 min", "1 h", "90 s" */
export function duration(seconds: number): string {
  if (seconds % 3600 === 0) {
    return `${seconds / 3600} h`;
  }
  if (seconds % 60 === 0) {
    return `${seconds / 60} min`;
  }
  return `${seconds} s`;
}
