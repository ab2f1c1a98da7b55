// Table tests for RamFilter (after nova/tests/unit/scheduler/filters/test_ram_filters.py).

import type { Verdict } from '../../src/scheduler/plugin-api';
import {
  buildHostView,
  buildRequestSpec,
  type InventoryInput,
} from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import { CODE_INSUFFICIENT_RAM, create, NAME, REASON_INSUFFICIENT_RAM } from './index';

interface Case {
  readonly name: string;
  readonly root?: InventoryInput;
  readonly child?: InventoryInput;
  readonly aggregates?: Record<string, string>[];
  readonly wanted: number;
  readonly want: boolean;
}

function run({ root, child, aggregates = [], wanted }: Case): Verdict {
  const plugin = buildPlugin(create, NAME);
  const host = buildHostView({
    providers: [
      { uuid: 'cn1', ...(root ? { inventories: { MEMORY_MB: root } } : {}) },
      { uuid: 'numa0', parentUuid: 'cn1', ...(child ? { inventories: { MEMORY_MB: child } } : {}) },
    ],
    aggregates: aggregates.map((metadata, i) => ({ uuid: `agg${i}`, metadata })),
  });
  return verdictOf(plugin, host, buildRequestSpec({ resources: { MEMORY_MB: wanted, VCPU: 1 } }));
}

describe(NAME, () => {
  it.each<Case>([
    { name: 'enough free memory', root: { total: 2048, used: 1024 }, wanted: 1024, want: true },
    {
      name: 'not enough free memory',
      root: { total: 2048, used: 1025 },
      wanted: 1024,
      want: false,
    },
    {
      name: 'reserved memory is not free',
      root: { total: 2048, reserved: 512 },
      wanted: 2000,
      want: false,
    },
    {
      name: 'the allocation ratio overcommits',
      root: { total: 1024, allocationRatio: 1.5 },
      wanted: 1536,
      want: true,
    },
    {
      name: 'free memory is summed over the tree',
      root: { total: 1024, used: 512 },
      child: { total: 1024 },
      wanted: 1536,
      want: true,
    },
    { name: 'no memory requested fits a host without memory', wanted: 0, want: true },
    { name: 'memory requested does not fit a host without memory', wanted: 1, want: false },
    {
      name: 'an aggregate ratio below the inventory ratio wins',
      root: { total: 1024, allocationRatio: 1.5 },
      aggregates: [{ ram_allocation_ratio: '1.0' }],
      wanted: 1536,
      want: false,
    },
    {
      name: 'the lowest aggregate ratio wins',
      root: { total: 1024 },
      aggregates: [{ ram_allocation_ratio: '2.0' }, { ram_allocation_ratio: '1.5' }],
      wanted: 1800,
      want: false,
    },
    {
      name: 'an aggregate ratio can raise the limit',
      root: { total: 1024 },
      aggregates: [{ ram_allocation_ratio: '2' }],
      wanted: 2048,
      want: true,
    },
    {
      name: 'an invalid aggregate ratio falls back to the inventory',
      root: { total: 1024 },
      aggregates: [{ ram_allocation_ratio: 'x' }],
      wanted: 2048,
      want: false,
    },
  ])('$name -> $want', (c) => {
    const verdict = run(c);
    expect(verdict.fits).toBe(c.want);
    if (!verdict.fits) {
      expect(verdict.code).toBe(CODE_INSUFFICIENT_RAM);
      expect(verdict.reason.startsWith(`${REASON_INSUFFICIENT_RAM}: wanted ${c.wanted} MB`)).toBe(
        true,
      );
    }
  });

  it('reports the free amount and the aggregate ratio used', () => {
    const verdict = run({
      name: '',
      root: { total: 1024, used: 24 },
      aggregates: [{ ram_allocation_ratio: '1' }],
      wanted: 2000,
      want: false,
    });
    expect(verdict).toEqual({
      fits: false,
      reason: `${REASON_INSUFFICIENT_RAM}: wanted 2000 MB, found 1000 MB free (aggregate ram_allocation_ratio=1)`,
      code: 'ram.insufficient',
    });
  });
});
