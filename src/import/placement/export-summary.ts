// Renders a Placement export summary: one line per kind (written / reused from the target), then
// what --replace removed.

import { alignedRows, escapeForTerminal } from '../../lib/text-table';
import type { PlacementExportSummary } from './export-placement';
import { EXPORT_KINDS } from './write-placement';

/** The summary as text lines (no trailing newline). */
export function renderExportSummary(s: PlacementExportSummary): string {
  const head = ['KIND', s.dryRun ? 'WOULD BE WRITTEN' : 'WRITTEN', 'ALREADY IN TARGET'];
  const rows = EXPORT_KINDS.map((k) => [
    k,
    String(s.counts[k].written),
    String(s.counts[k].reused),
  ]);
  const lines = [
    `${s.dryRun ? 'DRY RUN (nothing written): ' : ''}Placement database ${escapeForTerminal(s.target)}`,
    ...alignedRows([head, ...rows], [1, 2]),
  ];
  const r = s.removed;
  if (r.providers + r.consumers + r.allocations > 0) {
    lines.push(
      `${s.dryRun ? 'would be removed' : 'removed'} first (--replace): ${r.providers} provider(s), ${r.consumers} consumer(s), ${r.allocations} allocation(s)`,
    );
  }
  lines.push(`${s.dryRun ? 'planned' : 'exported'} in ${s.seconds.toFixed(1)} s`);
  return lines.join('\n');
}
