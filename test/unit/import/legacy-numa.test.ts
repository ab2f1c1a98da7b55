// NUMA cell parsing and the seed's NUMA inventory rules (seed 001 step 4d).
import { numaCells, numaInventories, parseCpuSpec } from '../../../src/import/legacy-numa';

describe('parseCpuSpec', () => {
  it.each([
    { spec: '0-3', want: [0, 1, 2, 3] },
    { spec: '0-3,8-9', want: [0, 1, 2, 3, 8, 9] },
    { spec: '0-5,^2,^4', want: [0, 1, 3, 5] },
    { spec: ' 1 , 3 ', want: [1, 3] },
  ])('reads "$spec"', ({ spec, want }) => {
    expect([...parseCpuSpec(spec)].sort((a, b) => a - b)).toEqual(want);
  });

  it.each(['a-b', '3-1', '1--2'])('rejects "%s"', (spec) => {
    expect(() => parseCpuSpec(spec)).toThrow(/bad CPU range/);
  });
});

describe('numaCells', () => {
  it.each([
    { name: 'NULL', raw: null, want: [] },
    {
      name: 'a legacy Juno cell with a text cpu range and mem.total, no siblings',
      raw: '{"cells": [{"id": 0, "cpus": "0-3", "mem": {"total": 2048, "used": 0}}]}',
      want: [{ cores: 4, threads: 4, memoryMb: 2048 }],
    },
    {
      name: 'pcpuset counted with cpuset; partial sibling lists',
      raw: { cells: [{ cpuset: [0, 1], pcpuset: [2, 3], memory: 1024, siblings: [[0, 2]] }] },
      want: [{ cores: 3, threads: 4, memoryMb: 1024 }],
    },
  ])('reads $name', ({ raw, want }) => {
    expect(numaCells(raw)).toEqual(want);
  });

  it.each([
    { raw: '{"cells": 3}', msg: /no list of cells/ },
    { raw: { cells: [{ cpuset: 'x', memory: 1 }] }, msg: /bad CPU range/ },
    { raw: { cells: [{ cpuset: [0], memory: -1 }] }, msg: /memory/ },
  ])('rejects $raw', ({ raw, msg }) => {
    expect(() => numaCells(raw)).toThrow(msg);
  });
});

describe('numaInventories', () => {
  it('uses the largest cell as max_unit for asymmetric cells and drops empty classes', () => {
    expect(
      numaInventories([
        { cores: 4, threads: 8, memoryMb: 0 },
        { cores: 2, threads: 2, memoryMb: 0 },
      ]),
    ).toEqual([
      { resourceClass: 'NUMA_SOCKET', total: 2, maxUnit: 1 },
      { resourceClass: 'NUMA_CORE', total: 6, maxUnit: 4 },
      { resourceClass: 'NUMA_THREAD', total: 10, maxUnit: 8 },
    ]);
  });

  it('offers nothing without cells', () => {
    expect(numaInventories([])).toEqual([]);
  });
});
