// Renders an import summary as a plain-text table (one line per row, indented details beneath
// for what changed, what was skipped and why) followed by the totals.
import { IMPORT_ACTIONS, type ImportSummary, type NodeOutcome } from './import-service';

function detailsOf(n: NodeOutcome): string[] {
  return [
    ...(n.reason ? [`reason: ${n.reason}`] : []),
    ...n.changes,
    ...n.skippedInventories.map((s) => `skipped ${s.resourceClass}: ${s.reason}`),
    ...n.notes.map((note) => `note: ${note}`),
  ];
}

/** The summary as text lines (no trailing newline). */
export function renderSummary(summary: ImportSummary): string {
  const head = ['ID', 'NAME', 'UUID', 'RESULT'];
  const rows = summary.nodes.map((n) => [n.sourceId, n.name ?? '-', n.uuid ?? '-', n.action]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const indent = ' '.repeat(widths[0]! + 2);
  const lines = [
    `${summary.dryRun ? 'DRY RUN (nothing written): ' : ''}compute nodes from ${summary.source}`,
    fmt(head),
  ];
  summary.nodes.forEach((n, i) => {
    lines.push(fmt(rows[i]!));
    for (const d of detailsOf(n)) {
      lines.push(`${indent}${d}`);
    }
  });
  const verb = summary.dryRun ? 'would be ' : '';
  lines.push(
    `${summary.nodes.length} row(s): ${IMPORT_ACTIONS.map((a) => `${summary.counts[a]} ${a === 'skipped' || a === 'failed' || a === 'unchanged' ? a : verb + a}`).join(', ')}`,
  );
  return lines.join('\n');
}
