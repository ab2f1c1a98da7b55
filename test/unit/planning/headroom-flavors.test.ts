// The flavors headroom counts: BERTH_PLANNING_FLAVORS (src/config/planning.ts) — Nova's m1.* set
// when unset, a JSON list (or @file) otherwise, a bad value refused naming the variable — as the
// engine's request (planningFlavorOf), and `berth headroom --flavor` (parseFlavorOption).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseFlavorOption } from '../../../src/cli/headroom-command';
import { loadConfig } from '../../../src/config/config';
import { planningFlavorOf } from '../../../src/planning/headroom-run';

const flavors = (value?: string) =>
  loadConfig({
    NODE_ENV: 'test',
    ...(value === undefined ? {} : { BERTH_PLANNING_FLAVORS: value }),
  }).planning.flavors;

describe('BERTH_PLANNING_FLAVORS', () => {
  it("is Nova's m1.* set when unset or empty", () => {
    for (const unset of [undefined, '']) {
      expect(flavors(unset).map((f) => [f.name, f.resources])).toEqual([
        ['m1.tiny', { VCPU: 1, MEMORY_MB: 512, DISK_GB: 1 }],
        ['m1.small', { VCPU: 1, MEMORY_MB: 2048, DISK_GB: 20 }],
        ['m1.medium', { VCPU: 2, MEMORY_MB: 4096, DISK_GB: 40 }],
        ['m1.large', { VCPU: 4, MEMORY_MB: 8192, DISK_GB: 80 }],
        ['m1.xlarge', { VCPU: 8, MEMORY_MB: 16384, DISK_GB: 160 }],
      ]);
    }
  });

  it('reads a JSON list, inline or from @file', () => {
    const list = [
      { name: 'gpu', resources: { VCPU: 4, VGPU: 1 }, required: ['CUSTOM_A100'] },
      { name: 'small', resources: { VCPU: 1 } },
    ];
    const want = [
      { name: 'gpu', resources: { VCPU: 4, VGPU: 1 }, required: ['CUSTOM_A100'] },
      { name: 'small', resources: { VCPU: 1 }, required: [] },
    ];
    expect(flavors(JSON.stringify(list))).toEqual(want);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'berth-flavors-')), 'flavors.json');
    writeFileSync(file, JSON.stringify(list));
    expect(flavors(`@${file}`)).toEqual(want);
  });

  it.each([
    ['not JSON', '[{', /not JSON/],
    ['not a list', '{}', /expected array/],
    ['an empty list', '[]', /at least one flavor/],
    ['a flavor without resources', '[{"name":"a","resources":{}}]', /at least one resource/],
    ['an amount of 0', '[{"name":"a","resources":{"VCPU":0}}]', /resources\.VCPU/],
    ['a lower-case class', '[{"name":"a","resources":{"vcpu":1}}]', /resources\.vcpu/],
    ['an unknown key', '[{"name":"a","resources":{"VCPU":1},"ram":1}]', /ram/],
    [
      'two flavors of one name',
      '[{"name":"a","resources":{"VCPU":1}},{"name":"a","resources":{"VCPU":2}}]',
      /names must differ/,
    ],
  ])('refuses %s, naming the variable', (_what, value, message) => {
    expect(() => flavors(value)).toThrow(/^invalid BERTH_PLANNING_FLAVORS: /);
    expect(() => flavors(value)).toThrow(message);
  });

  it('becomes one unsuffixed request group with each required trait', () => {
    expect(planningFlavorOf({ name: 'gpu', resources: { VGPU: 1 }, required: ['A', 'B'] })).toEqual(
      {
        name: 'gpu',
        request: {
          groups: [
            {
              suffix: '',
              resources: { VGPU: 1 },
              requiredTraits: [['A'], ['B']],
              forbiddenTraits: [],
              memberOf: [],
              forbiddenAggregates: [],
            },
          ],
        },
        extraSpecs: {},
      },
    );
  });
});

describe('berth headroom --flavor', () => {
  it('reads name=CLASS:n,...[,required=TRAIT]', () => {
    const f = parseFlavorOption('m1.big=VCPU:8,MEMORY_MB:16384,required=CUSTOM_FAST');
    expect(f.name).toBe('m1.big');
    expect(f.request.groups).toEqual([
      expect.objectContaining({
        suffix: '',
        resources: { VCPU: 8, MEMORY_MB: 16384 },
        requiredTraits: [['CUSTOM_FAST']],
      }),
    ]);
  });

  it.each([
    ['no name', '=VCPU:1', /name=CLASS:n/],
    ['no amount', 'a=VCPU', /'VCPU' is not CLASS:n/],
    ['an amount of 0', 'a=VCPU:0', /'VCPU:0' is not CLASS:n/],
    ['a class twice', 'a=VCPU:1,VCPU:2', /'VCPU:2' is not CLASS:n/],
    ['only traits', 'a=required=X', /asks for no resource/],
  ])('refuses %s', (_what, value, message) => {
    expect(() => parseFlavorOption(value)).toThrow(message);
  });
});
