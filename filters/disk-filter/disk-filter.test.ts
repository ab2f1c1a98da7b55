// Table tests for DiskFilter (after nova/tests/unit/scheduler/filters/test_disk_filters.py).

import type { Verdict } from '../../src/scheduler/plugin-api';
import {
  buildHostView,
  buildRequestSpec,
  type InventoryInput,
} from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import { CODE_INSUFFICIENT_DISK, create, NAME, REASON_INSUFFICIENT_DISK } from './index';

function run(
  disk: InventoryInput | undefined,
  aggregates: Record<string, string>[],
  wanted: number,
): Verdict {
  const plugin = buildPlugin(create, NAME);
  const host = buildHostView({
    providers: [
      { uuid: 'cn1', inventories: disk ? { DISK_GB: disk, MEMORY_MB: 4096 } : { MEMORY_MB: 4096 } },
    ],
    aggregates: aggregates.map((metadata, i) => ({ uuid: `agg${i}`, metadata })),
  });
  return verdictOf(
    plugin,
    host,
    buildRequestSpec({ resources: { DISK_GB: wanted, MEMORY_MB: 512 } }),
  );
}

describe(NAME, () => {
  it.each([
    { name: 'enough free disk', disk: { total: 100, used: 60 }, aggs: [], wanted: 40, want: true },
    {
      name: 'not enough free disk',
      disk: { total: 100, used: 61 },
      aggs: [],
      wanted: 40,
      want: false,
    },
    {
      name: 'reserved disk is not free',
      disk: { total: 100, reserved: 10 },
      aggs: [],
      wanted: 95,
      want: false,
    },
    {
      name: 'the allocation ratio overcommits',
      disk: { total: 100, allocationRatio: 2 },
      aggs: [],
      wanted: 150,
      want: true,
    },
    {
      name: 'the lowest aggregate disk ratio wins',
      disk: { total: 100, allocationRatio: 2 },
      aggs: [{ disk_allocation_ratio: '1.5' }, { disk_allocation_ratio: '1' }],
      wanted: 120,
      want: false,
    },
    {
      name: 'the RAM ratio key does not apply to disk',
      disk: { total: 100 },
      aggs: [{ ram_allocation_ratio: '5' }],
      wanted: 120,
      want: false,
    },
    {
      name: 'no disk requested fits a host without disk',
      disk: undefined,
      aggs: [],
      wanted: 0,
      want: true,
    },
    {
      name: 'disk requested does not fit a host without disk',
      disk: undefined,
      aggs: [],
      wanted: 1,
      want: false,
    },
  ])('$name -> $want', ({ disk, aggs, wanted, want }) => {
    const verdict = run(disk, aggs, wanted);
    expect(verdict.fits).toBe(want);
    if (!verdict.fits) {
      expect(verdict.code).toBe(CODE_INSUFFICIENT_DISK);
      expect(verdict.reason.startsWith(`${REASON_INSUFFICIENT_DISK}: wanted ${wanted} GB`)).toBe(
        true,
      );
    }
  });
});
