// What the CLI prints cannot drive the terminal: every control character, bidi override and
// line separator in a name or id is shown as an escape, in every table (`berth check`, `berth
// audit log`, the import and export summaries), every text line beneath them and the progress bar.
import { renderAuditTable } from '../../../src/cli/audit-command';
import { renderCheckTable } from '../../../src/cli/check-command';
import { describeStartupError } from '../../../src/cli/errors';
import type { ImportSummary } from '../../../src/import/import-service';
import type { PlacementExportSummary } from '../../../src/import/placement/export-placement';
import { renderExportSummary } from '../../../src/import/placement/export-summary';
import type { PlacementImportSummary } from '../../../src/import/placement/import-placement';
import { renderPlacementSummary } from '../../../src/import/placement/summary';
import { EXPORT_KINDS } from '../../../src/import/placement/write-placement';
import { ProgressBar } from '../../../src/import/progress';
import { renderSummary } from '../../../src/import/summary-table';
import { alignedRows, escapeForTerminal, jsonForTerminal } from '../../../src/lib/text-table';
import type { AuditEventRecord } from '../../../src/placement/audit-log';

const ESC = '\u001b';
/** The attack run's project id: return to column 0, erase the line, print a forged one. */
const FORGED = `\r${ESC}[2K2026-01-01T00:00:00.000Z  admin  admin  nothing to see`;
/** Anything a terminal would act on rather than show (written out again, not imported). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

/** `text` split into lines, each checked to hold nothing a terminal acts on. */
function safeLines(text: string): string[] {
  const lines = text.split('\n');
  for (const line of lines) {
    expect({ line, unsafe: UNSAFE.test(line) }).toEqual({ line, unsafe: false });
  }
  return lines;
}

describe('escapeForTerminal', () => {
  it.each([
    ['CR, LF and TAB by name', 'a\r\n\tb', 'a\\r\\n\\tb'],
    [
      'ESC and the other C0 controls as \\x',
      `${ESC}[2K\u0000\u0007\u0008`,
      '\\x1b[2K\\x00\\x07\\x08',
    ],
    ['DEL', 'a\u007fb', 'a\\x7fb'],
    ['C1 controls (8-bit CSI, NEL)', '\u009b2K\u0085', '\\x9b2K\\x85'],
    [
      'bidi overrides, embeddings, isolates and marks',
      '\u202ecba\u202a\u2066\u2069\u200f\u061c',
      '\\u202ecba\\u202a\\u2066\\u2069\\u200f\\u061c',
    ],
    ['line and paragraph separators', 'a\u2028b\u2029c', 'a\\u2028b\\u2029c'],
  ])('escapes %s', (_what, input, shown) => {
    expect(escapeForTerminal(input)).toBe(shown);
  });

  it('leaves printable text alone, unicode and backslashes included', () => {
    const text = 'compute-1 über 計算 \\x1b … "quoted" é';
    expect(escapeForTerminal(text)).toBe(text);
  });
});

describe('jsonForTerminal', () => {
  it('escapes what JSON.stringify leaves raw (DEL, C1, bidi, separators), and parses the same', () => {
    const value = { project: `${FORGED}\u009b2K\u007f\u202eabc\u2028`, n: 1, list: ['\u2066x'] };
    // JSON.stringify itself lets C1 CSI, DEL, the override and the separator through.
    expect(UNSAFE.test(JSON.stringify(value))).toBe(true);
    const text = jsonForTerminal(value);
    safeLines(text);
    expect(text).toContain('\\u009b2K\\u007f\\u202eabc\\u2028');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('alignedRows', () => {
  it('escapes every cell and aligns on the escaped width', () => {
    expect(
      alignedRows([
        ['NAME', 'N'],
        [`a${ESC}[2Kb`, '1'],
        ['c', '22'],
      ]),
    ).toEqual(['NAME       N', 'a\\x1b[2Kb  1', 'c          22']);
  });
});

describe('CLI reports with hostile names', () => {
  const event = (o: Partial<AuditEventRecord>): AuditEventRecord => ({
    id: 1,
    createdAt: new Date('2026-11-25T06:32:08.398Z'),
    requestId: 'req-1',
    actorKind: 'token',
    actorId: 'tok1',
    actorName: 'nova-scheduler',
    userId: null,
    projectId: null,
    role: 'scheduler',
    operation: 'PUT /allocations/{consumer_uuid}',
    consumers: ['6b2d2c7e-0f7a-4b8e-9a51-1f3c0d2e9a77'],
    providers: [],
    projects: [],
    details: null,
    ...o,
  });

  it('berth audit log: a forged project id stays on its own row, escaped', () => {
    const text = renderAuditTable([
      event({ projects: [FORGED] }),
      event({
        actorName: `evil\n${ESC}]0;title\u0007`,
        userId: '\u202emoc.elpmaxe',
        details: { name: `x\u0085y\u2028z` },
      }),
    ]);
    const lines = safeLines(text);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(
      'project:\\r\\x1b[2K2026-01-01T00:00:00.000Z  admin  admin  nothing to see',
    );
    expect(lines[2]).toContain('evil\\n\\x1b]0;title\\x07 (\\u202emoc.elpmaxe)');
    expect(lines[2]).toContain('{"name":"x\\x85y\\u2028z"}');
  });

  it('berth check: examples are escaped', () => {
    const text = renderCheckTable({
      status: 'problem',
      checks: [
        {
          check: 'consumer-missing-owner',
          severity: 'problem',
          ok: false,
          count: 1,
          examples: [FORGED],
          subject: 'consumer',
          description: 'd',
        },
      ],
    });
    expect(safeLines(text)[1]).toContain('consumer \\r\\x1b[2K');
  });

  it('berth import compute-nodes: names, reasons, changes and notes are escaped', () => {
    const summary: ImportSummary = {
      source: `mysql://db/nova${ESC}[8m`,
      dryRun: false,
      counts: { created: 1, updated: 0, unchanged: 0, skipped: 0, failed: 0 },
      nodes: [
        {
          sourceId: '1',
          name: `cmp1\r${ESC}[2Kcmp9`,
          uuid: null,
          action: 'created',
          changes: [`+VCPU\n${ESC}[31m`],
          skippedInventories: [{ resourceClass: 'DISK_GB', reason: `shared\u202e` }],
          notes: [`note\u2029`],
          reason: `why\u009b`,
        },
      ],
    };
    const lines = safeLines(renderSummary(summary));
    expect(lines[0]).toBe('compute nodes from mysql://db/nova\\x1b[8m');
    expect(lines[2]).toContain('cmp1\\r\\x1b[2Kcmp9');
    expect(lines.slice(3, 7).map((l) => l.trim())).toEqual([
      'reason: why\\x9b',
      '+VCPU\\n\\x1b[31m',
      'skipped DISK_GB: shared\\u202e',
      'note: note\\u2029',
    ]);
  });

  it('berth import placement: provider names and differences are escaped', () => {
    const counts = Object.fromEntries(
      ['providers', 'inventories'].map((k) => [
        k,
        { created: 0, updated: 0, unchanged: 0, overCommitted: 0 },
      ]),
    ) as unknown as PlacementImportSummary['counts'];
    // Cast: the summary's other fields (being extended elsewhere) play no part here.
    const summary = {
      source: `postgresql://db/placement\r`,
      dryRun: false,
      counts,
      overCommitted: [
        {
          providerName: `host-1\r${ESC}[2Khost-2`,
          providerUuid: 'c0000000-0000-4000-8000-000000000001',
          resourceClass: 'VCPU',
          used: 9,
          capacity: 8,
        },
      ],
      replaced: [
        {
          kind: 'provider',
          uuid: 'c0000000-0000-4000-8000-000000000001',
          differences: [`name: a -> b\n${ESC}[1A`],
        },
      ],
      skipped: [],
      incompleteConsumers: 0,
      changed: true,
      seconds: 0.1,
    } as unknown as PlacementImportSummary;
    const text = safeLines(renderPlacementSummary(summary)).join('\n');
    expect(text).toContain('Placement database postgresql://db/placement\\r');
    expect(text).toContain('  host-1\\r\\x1b[2Khost-2 (c0000000-0000-4000-8000-000000000001) VCPU');
    expect(text).toContain('name: a -> b\\n\\x1b[1A');
  });

  it('berth export placement: the target is escaped', () => {
    const counts = Object.fromEntries(
      EXPORT_KINDS.map((k) => [k, { written: 0, reused: 0 }]),
    ) as PlacementExportSummary['counts'];
    const text = renderExportSummary({
      target: `postgresql://db/placement${ESC}[2J`,
      dryRun: false,
      counts,
      removed: { providers: 0, consumers: 0, allocations: 0 },
      seconds: 0,
    });
    expect(safeLines(text)[0]).toBe('Placement database postgresql://db/placement\\x1b[2J');
  });

  it('error lines (`berth: …`) are escaped', () => {
    expect(describeStartupError(new Error(`berth already holds provider ${FORGED}`))).toBe(
      'berth already holds provider \\r\\x1b[2K2026-01-01T00:00:00.000Z  admin  admin  nothing to see',
    );
  });

  it('the progress bar label is escaped', () => {
    const chunks: string[] = [];
    const bar = new ProgressBar({ isTTY: true, columns: 200, write: (c) => chunks.push(c) > 0 }, 0);
    bar.update(1, 2, `cmp1\r${ESC}]0;pwned\u0007\u202e`);
    bar.finish();
    const drawn = chunks.join('');
    expect(drawn).toContain('cmp1\\r\\x1b]0;pwned\\x07\\u202e');
    expect(drawn).not.toContain('pwned\u0007');
  });
});
