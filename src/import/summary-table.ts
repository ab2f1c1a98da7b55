// Renders an import summary as a plain-text table (one line per row, indented details beneath
// for what changed, what was skipped and why) followed by the totals.
import { alignedRows, escapeForTerminal } from '../lib/text-table';
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
  const [headLine, ...rowLines] = alignedRows([head, ...rows]);
  const indent = ' '.repeat(Math.max(head[0]!.length, ...rows.map((r) => r[0]!.length)) + 2);
  const lines = [
    `${summary.dryRun ? 'DRY RUN (nothing written): ' : ''}compute nodes from ${escapeForTerminal(summary.source)}`,
    headLine!,
  ];
  summary.nodes.forEach((n, i) => {
    lines.push(rowLines[i]!);
    for (const d of detailsOf(n)) {
      lines.push(`${indent}${escapeForTerminal(d)}`);
    }
  });
  const verb = summary.dryRun ? 'would be ' : '';
  lines.push(
    `${summary.nodes.length} row(s): ${IMPORT_ACTIONS.map((a) => `${summary.counts[a]} ${a === 'skipped' || a === 'failed' || a === 'unchanged' ? a : verb + a}`).join(', ')}`,
  );
  return lines.join('\n');
}
