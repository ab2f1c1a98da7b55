// Renders a Placement import summary: one line per kind (created / updated / unchanged /
// over-committed / skipped), then the over-committed inventories, the objects --replace overwrote
// and the source rows --skip-invalid left out.

import { alignedRows, escapeForTerminal } from '../../lib/text-table';
import type { PlacementImportSummary, SummaryKind } from './import-placement';
import { findingLines } from './source-findings';

const MAX_LISTED = 50;

/** The summary as text lines (no trailing newline). */
export function renderPlacementSummary(s: PlacementImportSummary): string {
  const verb = s.dryRun ? 'would be ' : '';
  const head = [
    'KIND',
    `${verb}CREATED`,
    `${verb}UPDATED`,
    'UNCHANGED',
    'OVER-COMMITTED',
    `${verb}SKIPPED`,
  ];
  const rows = (Object.keys(s.counts) as SummaryKind[]).map((k) => {
    const c = s.counts[k];
    const over = k === 'inventories' ? String(c.overCommitted) : '-';
    return [
      k,
      String(c.created),
      String(c.updated),
      String(c.unchanged),
      over,
      String(c.skipped ?? 0),
    ];
  });
  const lines = [
    `${s.dryRun ? 'DRY RUN (nothing written): ' : ''}Placement database ${escapeForTerminal(s.source)}`,
    ...alignedRows([head, ...rows], [1, 2, 3, 4, 5]),
  ];
  if (s.overCommitted.length > 0) {
    lines.push(`over-committed in the source (imported as Placement stored them):`);
    for (const o of s.overCommitted.slice(0, MAX_LISTED)) {
      lines.push(
        escapeForTerminal(
          `  ${o.providerName} (${o.providerUuid}) ${o.resourceClass}: used ${o.used} > capacity ${o.capacity}`,
        ),
      );
    }
    if (s.overCommitted.length > MAX_LISTED) {
      lines.push(`  … and ${s.overCommitted.length - MAX_LISTED} more`);
    }
  }
  if (s.replaced.length > 0) {
    lines.push(`${s.dryRun ? 'would be replaced' : 'replaced'} (--replace):`);
    for (const r of s.replaced.slice(0, MAX_LISTED)) {
      lines.push(escapeForTerminal(`  ${r.kind} ${r.uuid}: ${r.differences.join('; ')}`));
    }
    if (s.replaced.length > MAX_LISTED) {
      lines.push(`  … and ${s.replaced.length - MAX_LISTED} more`);
    }
  }
  const skipped = s.skipped ?? [];
  if (skipped.length > 0) {
    const dependents = skipped.filter((f) => f.rule === 'depends-on-skipped').length;
    lines.push(
      `${s.dryRun ? 'would be skipped' : 'skipped'} (--skip-invalid): ${skipped.length - dependents} source row(s) breaking a rule, ${dependents} provider(s) and consumer(s) depending on them:`,
      ...findingLines(skipped).map(escapeForTerminal),
    );
  }
  if (s.incompleteConsumers > 0) {
    lines.push(
      `${s.incompleteConsumers} consumer(s) had allocations but no consumers row: imported with project and user ${'00000000-0000-0000-0000-000000000000'}`,
    );
  }
  lines.push(
    s.changed
      ? `${s.dryRun ? 'planned' : 'imported'} in ${s.seconds.toFixed(1)} s`
      : 'nothing to change: berth already holds this Placement data',
  );
  return lines.join('\n');
}
