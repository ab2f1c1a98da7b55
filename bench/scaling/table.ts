// The scaling table as text: one row per data set, a failed step printed as what happened to it
// (OOM, timeout, exited, error, n/a) and "-" for a step the row did not reach, then one note per
// failure with its reason.
import { alignedRows } from '../../src/lib/text-table';
import type { ScalingRow, Step } from './row';

const n0 = (n: number) => Math.round(n).toLocaleString('en-US');
const n1 = (n: number) => n.toFixed(1);

/** The printed value of one cell: the figure, the step's failure, or "-" (not reached). */
function cell(row: ScalingRow, step: Step, value: string | undefined): string {
  return value ?? row.failed[step] ?? '-';
}

const HEADER = [
  'data set',
  'providers',
  'seed s',
  'index MiB (B/provider)',
  'heap MiB',
  'ready s',
  'RSS/worker MiB',
  'REST 1000 ms',
  'GQL 1000 ms',
  'full REST µs/KB',
  'full GQL µs/KB',
  'full REST MB, s',
  'schedule/s',
  'visible p50/p95 (answer) ms',
];

/** The table's lines (a header, a rule, one line per row, then the notes). */
export function scalingTable(rows: readonly ScalingRow[]): string[] {
  const body = rows.map((r) => {
    const s = r.spec;
    const label = `${n0(s.hosts)} ${s.shape}${s.gpus ? ` +${s.gpus} GPU` : ''}`;
    const rss =
      r.rssReady === undefined
        ? undefined
        : [r.rssReady, r.rssAfter, r.rssFull].map((m) => (m === undefined ? '-' : m)).join(' / ');
    return [
      label,
      r.providers === undefined ? '-' : n0(r.providers),
      cell(r, 'seed', r.seedS === undefined ? undefined : n1(r.seedS)),
      cell(r, 'index', r.index && `${n0(r.index.heapMiB)} (${n0(r.index.bytesPerProvider)})`),
      String(r.heapMiB),
      cell(r, 'ready', r.readyS === undefined ? undefined : n1(r.readyS)),
      cell(r, 'ready', rss),
      cell(r, 'rest', r.restP50 === undefined ? undefined : n1(r.restP50)),
      cell(r, 'graphql', r.gqlP50 === undefined ? undefined : n1(r.gqlP50)),
      cell(r, 'fullRest', r.fullRest && n1(r.fullRest.cpuUsPerKb)),
      cell(r, 'fullGql', r.fullGql && n1(r.fullGql.cpuUsPerKb)),
      cell(
        r,
        'fullRest',
        r.fullRest && `${n1(r.fullRest.kb / 1024)}, ${(r.fullRest.ms / 1000).toFixed(2)}`,
      ),
      cell(r, 'schedule', r.claimsPerS === undefined ? undefined : n0(r.claimsPerS)),
      cell(
        r,
        'visibility',
        r.visibility &&
          `${n1(r.visibility.p50)} / ${n1(r.visibility.p95)} (${n1(r.visibility.answerP50)})`,
      ),
    ];
  });
  const lines = alignedRows([HEADER, ...body], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  const rule = '-'.repeat(Math.max(...lines.map((l) => l.length)));
  const notes = rows.flatMap((r) => {
    const label = `${n0(r.spec.hosts)} ${r.spec.shape}`;
    const over =
      r.overCapacity === undefined || r.overCapacity === 0
        ? []
        : [`${label}: ${r.overCapacity} providers over capacity after the schedule loop`];
    return [...r.notes.map((n) => `${label}: ${n}`), ...over];
  });
  return [lines[0]!, rule, ...lines.slice(1), ...notes.map((n) => `  ${n}`)];
}
