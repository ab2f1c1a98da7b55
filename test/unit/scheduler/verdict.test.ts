// Unit tests for src/scheduler/runtime/verdict.ts and its use by the pipeline: a rejection's code
// is the filter's own, or the plugin's default code when it gave none; a malformed code is the
// plugin's invalid result, isolated per its failure policy.

import type { FailurePolicy, FilterPlugin } from '../../../src/scheduler/plugin-api';
import { createPipeline } from '../../../src/scheduler/runtime/pipeline';
import {
  defaultReasonCode,
  isReasonCode,
  readVerdict,
} from '../../../src/scheduler/runtime/verdict';
import { runPipeline } from '../../support/plugin';
import { hosts, spec, uuids } from './pipeline-fixtures';

describe('defaultReasonCode', () => {
  it.each([
    ['RamFilter', 'ram_filter'],
    ['RAMWeigher', 'ram_weigher'],
    ['NUMATopologyFilter', 'numa_topology_filter'],
    ['AggregateIoOpsFilter', 'aggregate_io_ops_filter'],
    ['PciPassthroughFilter', 'pci_passthrough_filter'],
    ['my-gpu-filter', 'my_gpu_filter'],
    ['Filter2Go', 'filter2_go'],
    ['42Filter', 'plugin_42_filter'],
    ['---', 'plugin'],
  ])('turns %s into %s', (name, code) => {
    expect(defaultReasonCode(name)).toBe(code);
    expect(isReasonCode(defaultReasonCode(name))).toBe(true);
  });
});

describe('isReasonCode', () => {
  it.each([
    'ram.insufficient',
    'availability_zone.mismatch',
    'server_group.anti_affinity',
    'x',
    'a.1',
  ])('accepts %s', (code) => {
    expect(isReasonCode(code)).toBe(true);
  });
  it.each([
    ['upper case', 'Ram.insufficient'],
    ['a leading digit', '1ram'],
    ['a space', 'ram insufficient'],
    ['an empty word', 'ram..insufficient'],
    ['a trailing dot', 'ram.'],
    ['a dash', 'ram-filter'],
    ['the empty string', ''],
    ['more than 100 characters', `a${'b'.repeat(100)}`],
    ['a number', 7],
  ])('refuses %s', (_what, code) => {
    expect(isReasonCode(code)).toBe(false);
  });
});

describe('readVerdict', () => {
  it('fills in the default code when the filter gives none', () => {
    expect(readVerdict({ fits: false, reason: 'too small' }, 'ram_filter')).toEqual({
      verdict: { fits: false, reason: 'too small', code: 'ram_filter' },
    });
  });

  it("keeps the filter's own code", () => {
    expect(
      readVerdict({ fits: false, reason: 'too small', code: 'ram.insufficient' }, 'ram_filter'),
    ).toEqual({ verdict: { fits: false, reason: 'too small', code: 'ram.insufficient' } });
  });

  it('says what is wrong with a malformed code', () => {
    expect(readVerdict({ fits: false, reason: 'x', code: 'Not A Code' }, 'd')).toEqual({
      problem: expect.stringMatching(
        /^reason code must be lowercase dotted words .*"?Not A Code"?$/,
      ),
    });
  });

  it('ignores a code on a host that fits', () => {
    expect(readVerdict({ fits: true, code: 'Whatever' }, 'd')).toEqual({ verdict: { fits: true } });
  });
});

describe('pipeline reason codes', () => {
  const coded = (code: unknown, onError: FailurePolicy = 'open'): FilterPlugin => ({
    name: 'ParityFilter',
    kind: 'filter',
    onError,
    filter: (host) =>
      host.uuid === 'h2' || host.uuid === 'h4'
        ? ({ fits: false, reason: `${host.uuid} is even`, code } as never)
        : { fits: true },
  });

  it("gives a rejection without a code the plugin's default code", async () => {
    const result = await runPipeline(
      createPipeline({ filters: [coded(undefined)], weighers: [] }),
      hosts,
      spec,
    );
    expect(result.explanation.filters[0]!.rejections.map((r) => r.code)).toEqual([
      'parity_filter',
      'parity_filter',
    ]);
  });

  it("keeps a rejection's own code", async () => {
    const result = await runPipeline(
      createPipeline({ filters: [coded('parity.even')], weighers: [] }),
      hosts,
      spec,
    );
    expect(result.explanation.filters[0]!.rejections).toEqual([
      { host: 'h2', hostName: 'host-2', reason: 'h2 is even', code: 'parity.even' },
      { host: 'h4', hostName: 'host-4', reason: 'h4 is even', code: 'parity.even' },
    ]);
  });

  it('isolates a malformed code fail-open: every host passes, the failure is reported', async () => {
    const result = await runPipeline(
      createPipeline({ filters: [coded('Parity Even')], weighers: [] }),
      hosts,
      spec,
    );
    expect(uuids(result).sort()).toEqual(['h1', 'h2', 'h3', 'h4']);
    expect(result.explanation.failures).toEqual([
      {
        plugin: 'ParityFilter',
        phase: 'filter',
        cause: 'invalid-result',
        message: expect.stringMatching(/^reason code must be/),
        host: 'h2',
        policy: 'open',
      },
    ]);
  });

  it('isolates a code that is not text fail-closed: every host is rejected as failed closed', async () => {
    const result = await runPipeline(
      createPipeline({ filters: [coded(42, 'closed')], weighers: [] }),
      hosts,
      spec,
    );
    expect(result.hosts).toEqual([]);
    const step = result.explanation.filters[0]!;
    expect(step.failure).toMatchObject({ cause: 'invalid-result', policy: 'closed' });
    expect(step.rejections.map((r) => r.code)).toEqual(Array(4).fill('plugin.failed_closed'));
    expect(step.rejections[0]!.reason).toMatch(
      /^ParityFilter failed closed \(invalid-result\): reason code must be/,
    );
  });
});
