// Table tests for JsonFilter (after nova/tests/unit/scheduler/filters/test_json_filters.py): the
// operators, None-dropping, Python truthiness, and the host variables berth derives from Placement.

import type { HostView } from '../../src/scheduler/plugin-api';
import {
  buildHostView,
  buildRequestSpec,
  type ProviderInput,
} from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import { hostIpTrait } from '../host-state/ip';
import {
  CODE_INVALID_QUERY,
  CODE_QUERY_FALSE,
  create,
  NAME,
  REASON_INVALID_QUERY,
  REASON_QUERY_FALSE,
} from './index';

/** A host with `ramMb` MiB and `diskGb` GiB free (Nova's FakeHostState free_ram_mb / free_disk_mb). */
function hostWith(ramMb: number, diskGb: number, extra: Partial<ProviderInput> = {}): HostView {
  return buildHostView({
    providers: [
      {
        uuid: 'h1',
        name: 'host1',
        inventories: { MEMORY_MB: ramMb, DISK_GB: diskGb },
        ...extra,
      },
    ],
  });
}

function verdict(query: unknown, host: HostView = hostWith(0, 0)) {
  const hints: Record<string, string[]> =
    query === undefined ? {} : { query: [JSON.stringify(query)] };
  return verdictOf(buildPlugin(create, NAME), host, buildRequestSpec({ hints }));
}

const NOVA_QUERY = ['and', ['>=', '$free_ram_mb', 1024], ['>=', '$free_disk_mb', 200 * 1024]];

describe(NAME, () => {
  it.each<[string, unknown, HostView, boolean]>([
    ['passes', NOVA_QUERY, hostWith(1024, 200), true],
    ['passes with no query', undefined, hostWith(0, 0), true],
    ['fails on memory', NOVA_QUERY, hostWith(1023, 200), false],
    ['fails on disk', NOVA_QUERY, hostWith(1024, 199), false],
    [
      'fails on service disabled',
      [...NOVA_QUERY, ['=', '$service.disabled', false]],
      hostWith(1024, 200, { traits: ['COMPUTE_STATUS_DISABLED'] }),
      false,
    ],
    [
      'passes on service enabled',
      [...NOVA_QUERY, ['=', '$service.disabled', false]],
      hostWith(1024, 200),
      true,
    ],
    // Python: a nested `not` is a list, true when non-empty, so this never rejects (as in Nova,
    // whose own test fails only because its fake host has no service at all).
    [
      'a nested not is a non-empty list',
      [...NOVA_QUERY, ['not', '$service.disabled']],
      hostWith(1024, 200, { traits: ['COMPUTE_STATUS_DISABLED'] }),
      true,
    ],
  ])('%s', (_name, query, host, want) => {
    const v = verdict(query, host);
    expect(v.fits).toBe(want);
    expect(!v.fits && v.code).toBe(!want && CODE_QUERY_FALSE);
  });

  // Nova's happy day, with $service.disabled and $cell_uuid standing in for its fake
  // $capabilities.enabled and $capabilities.opt1.
  const HAPPY = [
    'and',
    ['=', '$service.disabled', false],
    ['=', '$cell_uuid', 'match'],
    [
      'or',
      ['and', ['<', '$free_ram_mb', 30], ['<', '$free_disk_mb', 300 * 1024]],
      ['and', ['>', '$free_ram_mb', 30], ['>', '$free_disk_mb', 300 * 1024]],
    ],
  ];
  const cellHost = (ram: number, disk: number, cell: string, disabled = false) =>
    buildHostView({
      providers: [
        {
          uuid: 'h1',
          inventories: { MEMORY_MB: ram, DISK_GB: disk },
          traits: disabled ? ['COMPUTE_STATUS_DISABLED'] : [],
        },
      ],
      aggregates: [{ uuid: 'a1', metadata: { cell: cell } }],
    });
  it.each<[string, HostView, boolean]>([
    ['small on both', cellHost(10, 200, 'match'), true],
    ['large on both', cellHost(40, 400, 'match'), true],
    ['disabled', cellHost(40, 400, 'match', true), false],
    ['exactly the bounds', cellHost(30, 300, 'match'), false],
    ['memory lower, disk higher', cellHost(20, 400, 'match'), false],
    ['other cell', cellHost(20, 400, 'no-match'), false],
  ])('happy day: %s', (_name, host, want) => {
    const v = verdict(HAPPY, host);
    expect(v.fits).toBe(want);
    expect(!v.fits && v.code).toBe(!want && CODE_QUERY_FALSE);
  });

  it.each<[string, unknown[], boolean]>([
    ['=', [1, 1], true],
    ['=', [1, 2], false],
    ['<', [1, 2], true],
    ['<', [1, 1], false],
    ['<', [2, 1], false],
    ['>', [2, 1], true],
    ['>', [2, 2], false],
    ['>', [2, 3], false],
    ['<=', [1, 2], true],
    ['<=', [1, 1], true],
    ['<=', [2, 1], false],
    ['>=', [2, 1], true],
    ['>=', [2, 2], true],
    ['>=', [2, 3], false],
    ['in', [1, 1], true],
    ['in', [1, 1, 2, 3], true],
    ['in', [4, 1, 2, 3], false],
    ['not', [true], false],
    ['not', [false], true],
    ['or', [true, false], true],
    ['or', [false, false], false],
    ['and', [true, true], true],
    ['and', [false, false], false],
    ['and', [true, false], false],
    [
      'and',
      [
        ['or', true, false],
        ['>', 2, 1],
      ],
      true,
    ],
    // a top-level `not` gives a list: the host passes when any element is true
    ['not', [true, false, true, false], true],
    ['not', [true, true, true], false],
    // Python: comparisons against every other argument; equality across int, float and bool
    ['<', [1, 2, 3], true],
    ['<', [1, 2, 0], false],
    ['=', [1, 1.0, true], true],
    ['=', ['a', 'a'], true],
    ['<', ['a', 'b'], true],
    ['=', ['1', 1], false],
    ['in', [{ a: 1 }, { a: 1.0 }], true],
    // None-dropping: with one argument left, a comparison is false
    ['>', [1], false],
    ['=', ['', 1, 1], true],
    ['=', [null, 1, 1], true],
    ['=', ['$', 1, 1], true],
    ['=', ['$........', 1, 1], true],
    ['=', ['$foo', 2, 2], true],
    ['=', ['$foo', 2], false],
    // Python truthiness: empty containers are false, a nested `not` list is true when non-empty
    ['and', [{}], false],
    ['or', [0, '', false], false],
    ['and', [['not', true]], true],
    ['and', [[]], true],
    ['and', [], true],
    ['or', [], false],
  ])('operator %s over %j -> %p', (op, args, want) => {
    expect(verdict([op, ...args]).fits).toBe(want);
  });

  it.each([[[]], [{}], [null], [false], [0], ['']])(
    'passes every host for the empty query %j',
    (query) => {
      expect(verdict(query)).toEqual({ fits: true });
    },
  );

  it('fails the nested operator-less query as Nova does', () => {
    expect(verdict(['>', ['and', ['or', ['not', ['<', ['>=', ['<=', ['in']]]]]]]]).fits).toBe(
      false,
    );
  });

  it.each<[string, string[], string]>([
    ['an unknown operator', ['["!=", 1, 2]'], 'unknown operator "!="'],
    ['an unknown nested operator', ['["and", true, ["xor", 1]]'], 'unknown operator "xor"'],
    ['an operator that is a list', ['[["="], 1]'], 'unknown operator ["="]'],
    ['malformed JSON', ['[">=", "$free_ram_mb"'], 'not JSON'],
    ['a top-level object', ['{"=": 1}'], 'a query is a JSON list'],
    ['a top-level string', ['"=ab"'], 'a query is a JSON list'],
    ['several values', ['[]', '[]'], 'hint query holds one JSON query, got 2 values'],
    [
      'too deep a query',
      [`${'["and", '.repeat(101)}true${']'.repeat(101)}`],
      'a query may nest 100 deep',
    ],
  ])('rejects every host for %s', (_name, values, message) => {
    const host = hostWith(1024, 200);
    const v = verdictOf(
      buildPlugin(create, NAME),
      host,
      buildRequestSpec({ hints: { query: values } }),
    );
    expect(v.fits).toBe(false);
    expect(!v.fits && v.reason).toContain(`${REASON_INVALID_QUERY}: ${message}`);
    expect(!v.fits && v.code).toBe(CODE_INVALID_QUERY);
  });

  it.each<[string, unknown]>([
    ['text against a number', ['<', '$host', 1]],
    ['a key into a number', ['=', '$free_ram_mb.x', 1]],
    ['a key into text', ['=', '$host.x', 1]],
    ['an error after a false comparison', ['or', ['<', 2, 1, 'a'], true]],
  ])('rejects the host when evaluating raises (%s)', (_name, query) => {
    const v = verdict(query, hostWith(1024, 200));
    expect(!v.fits && v.reason.startsWith(`${REASON_INVALID_QUERY}: `)).toBe(true);
    expect(!v.fits && v.code).toBe(CODE_INVALID_QUERY);
  });

  it('names the variables and their values when the query is false', () => {
    expect(verdict(NOVA_QUERY, hostWith(512, 200))).toEqual({
      fits: false,
      reason: `${REASON_QUERY_FALSE} ($free_ram_mb=512, $free_disk_mb=204800)`,
      code: 'json.query_false',
    });
  });

  it('reads the host variables Nova names from Placement', () => {
    const host = buildHostView({
      providers: [
        {
          uuid: 'h1',
          name: 'cn1',
          inventories: {
            MEMORY_MB: { total: 4096, reserved: 512, used: 1024, allocationRatio: 1.5 },
            DISK_GB: { total: 100, reserved: 10, used: 20 },
            VCPU: { total: 8, reserved: 1, used: 3, allocationRatio: 16 },
          },
          traits: [hostIpTrait('10.0.0.5'), 'CUSTOM_HYPERVISOR_VERSION_8000000'],
        },
      ],
      numInstances: 3,
      numIoOps: 1,
    });
    const cases: [unknown, boolean][] = [
      [['=', '$free_ram_mb', 4096 - 512 - 1024], true],
      [['=', '$total_usable_ram_mb', 4096], true],
      [['=', '$free_disk_mb', 70 * 1024], true],
      [['=', '$disk_mb_used', 30 * 1024], true],
      [['=', '$total_usable_disk_gb', 100], true],
      [['=', '$vcpus_total', 8], true],
      [['=', '$vcpus_used', 4], true],
      [['=', '$num_instances', 3], true],
      [['=', '$num_io_ops', 1], true],
      [['=', '$stats.num_instances', '3'], true],
      [['=', '$host_ip', '10.0.0.5'], true],
      [['>=', '$hypervisor_version', 8000000], true],
      [['=', '$ram_allocation_ratio', 1.5], true],
      [['=', '$cpu_allocation_ratio', 16], true],
      [['=', '$host', 'cn1'], true],
      [['=', '$uuid', 'h1'], true],
      [['=', '$service.disabled', false], true],
      // Placement holds no cpu_info: None, dropped, so the comparison has one argument
      [['=', '$cpu_info', 'x'], false],
      [['=', '$cell_uuid', 'x'], false],
    ];
    for (const [query, want] of cases) {
      expect([query, verdict(query, host).fits]).toEqual([query, want]);
    }
  });

  it('counts a move that arrived on the host unless countMovesOn is source (Nova)', () => {
    const host = buildHostView({
      providers: [{ uuid: 'h1', name: 'cn1' }],
      numInstances: 3,
      numIoOps: 2,
      numMovesIn: 1,
    });
    const query = ['and', ['=', '$num_instances', 2], ['=', '$num_io_ops', 1]];
    const hints = { query: [JSON.stringify(query)] };
    const run = (config: Record<string, unknown>) =>
      verdictOf(buildPlugin(create, NAME, config), host, buildRequestSpec({ hints })).fits;
    expect(run({})).toBe(false);
    expect(run({ countMovesOn: 'source' })).toBe(true);
    expect(() => buildPlugin(create, NAME, { countMovesOn: 'x' })).toThrow('countMovesOn');
  });
});
