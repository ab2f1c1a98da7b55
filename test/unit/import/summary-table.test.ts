// The import summary table: one line per row, details indented beneath, totals last.
import type { ImportSummary, NodeOutcome } from '../../../src/import/import-service';
import { renderSummary } from '../../../src/import/summary-table';

const node = (o: Partial<NodeOutcome>): NodeOutcome => ({
  sourceId: '1',
  name: 'cmp1',
  uuid: null,
  action: 'unchanged',
  changes: [],
  skippedInventories: [],
  notes: [],
  reason: null,
  ...o,
});

const summary = (dryRun: boolean, nodes: NodeOutcome[]): ImportSummary => ({
  source: 'mysql://root@db/nova `compute_nodes`',
  dryRun,
  nodes,
  counts: { created: 1, updated: 0, unchanged: 0, skipped: 0, failed: 1 },
});

describe('renderSummary', () => {
  it('aligns columns and lists reasons, changes, skipped classes and notes under each row', () => {
    const text = renderSummary(
      summary(false, [
        node({
          uuid: '8f4bd6a6-2d3e-4b39-9a54-3a5e1f0c7d11',
          action: 'created',
          changes: ['+VCPU total=8'],
          skippedInventories: [{ resourceClass: 'DISK_GB', reason: 'shared storage' }],
          notes: ['uuid written back to the source'],
        }),
        node({ sourceId: '12', name: 'bad', action: 'failed', reason: 'vcpus is NULL' }),
      ]),
    );
    expect(text.split('\n')).toEqual([
      'compute nodes from mysql://root@db/nova `compute_nodes`',
      'ID  NAME  UUID                                  RESULT',
      '1   cmp1  8f4bd6a6-2d3e-4b39-9a54-3a5e1f0c7d11  created',
      '    +VCPU total=8',
      '    skipped DISK_GB: shared storage',
      '    note: uuid written back to the source',
      '12  bad   -                                     failed',
      '    reason: vcpus is NULL',
      '2 row(s): 1 created, 0 updated, 0 unchanged, 0 skipped, 1 failed',
    ]);
  });

  it('says so on a dry run', () => {
    const lines = renderSummary(summary(true, [node({ action: 'created' })])).split('\n');
    expect(lines[0]).toBe(
      'DRY RUN (nothing written): compute nodes from mysql://root@db/nova `compute_nodes`',
    );
    expect(lines.at(-1)).toBe(
      '1 row(s): 1 would be created, 0 would be updated, 0 unchanged, 0 skipped, 1 failed',
    );
  });
});
