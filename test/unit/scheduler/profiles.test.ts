// Scheduler profiles: BERTH_SCHEDULER_PROFILES parsing (every mistake named with the variable and
// the profile), how a profile composes with the default one, building every profile up front, and
// the PipelineSet's choice, keys and all-or-nothing reload.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinPlugins } from '../../../filters/registry';
import { PipelineSet } from '../../../src/scheduler/runtime/pipeline-set';
import {
  type BaseProfile,
  buildProfilesOrThrow,
  parseProfilesOrThrow,
  profileConfigs,
} from '../../../src/scheduler/runtime/profiles';
import { createRegistry } from '../../../src/scheduler/runtime/registry';

const registry = createRegistry(builtinPlugins);
const logger = { warn: () => {}, info: () => {} };
const base: BaseProfile = {
  filters: ['ComputeFilter', 'RamFilter'],
  weighers: ['RAMWeigher'],
  plugins: { RAMWeigher: { multiplier: 1 } },
  hostSubsetSize: 2,
};
const build = (raw: string) =>
  buildProfilesOrThrow(registry, profileConfigs(base, parseProfilesOrThrow(raw)), logger);

describe('BERTH_SCHEDULER_PROFILES', () => {
  it.each([
    ['{', /^BERTH_SCHEDULER_PROFILES: it is not JSON/],
    ['[]', /^BERTH_SCHEDULER_PROFILES: must be a JSON object/],
    ['{"default": {}}', /profile "default" is BERTH_SCHEDULER_FILTERS/],
    ['{"a b": {}}', /"a b" is not a profile name/],
    ['{"gpu": []}', /profile "gpu" must be an object/],
    ['{"gpu": {"filter": []}}', /profile "gpu": unknown key "filter"; known keys: filters,/],
    ['{"gpu": {"filters": "RamFilter"}}', /profile "gpu": filters must be a list of plugin names/],
    ['{"gpu": {"plugins": {"RamFilter": 1}}}', /profile "gpu": plugins must be an object/],
    ['{"gpu": {"hostSubsetSize": 0}}', /profile "gpu": hostSubsetSize must be a whole number/],
    ['{"gpu": {"__proto__": {}}}', /"__proto__" is not a profile, plugin or key name/],
  ])('refuses %s', (raw, message) => {
    expect(() => parseProfilesOrThrow(raw)).toThrow(message);
  });

  it('reads @file, and names the file it cannot read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'berth-profiles-'));
    try {
      writeFileSync(join(dir, 'p.json'), '{"gpu": {"filters": ["RamFilter"]}}');
      expect([...parseProfilesOrThrow(`@${join(dir, 'p.json')}`).keys()]).toEqual(['gpu']);
      expect(() => parseProfilesOrThrow(`@${join(dir, 'nope.json')}`)).toThrow(
        `BERTH_SCHEDULER_PROFILES: cannot read ${join(dir, 'nope.json')}`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('inherits absent lists from the default profile and merges plugin configuration over it', () => {
    const configs = profileConfigs(
      base,
      parseProfilesOrThrow(
        '{"pack": {"weighers": ["RAMWeigher", "CPUWeigher"], "plugins": {"RAMWeigher": {"multiplier": -1}}, "hostSubsetSize": 1}}',
      ),
    );
    expect([...configs.keys()]).toEqual(['default', 'pack']);
    expect(configs.get('pack')).toMatchObject({
      enabledFilters: ['ComputeFilter', 'RamFilter'],
      enabledWeighers: ['RAMWeigher', 'CPUWeigher'],
      plugins: { RAMWeigher: { multiplier: -1 } },
      hostSubsetSize: 1,
    });
    expect(configs.get('default')!.plugins).toEqual({ RAMWeigher: { multiplier: 1 } });
  });

  it.each([
    [
      '{"gpu": {"filters": ["RamFiltre"]}}',
      /^BERTH_SCHEDULER_PROFILES: profile "gpu": filters: unknown scheduler filter "RamFiltre"/,
    ],
    [
      '{"gpu": {"plugins": {"RamFilter": {"x": 1}}}}',
      /^BERTH_SCHEDULER_PROFILES: profile "gpu": plugins\.RamFilter: unknown configuration key "x"/,
    ],
  ])('builds every profile up front, naming the one that does not build: %s', (raw, message) => {
    expect(() => build(raw)).toThrow(message);
  });
});

describe('PipelineSet', () => {
  let raw = '{"gpu": {"filters": ["ComputeFilter"]}}';
  const set = () => new PipelineSet(() => ({ registry, profiles: build(raw) }), logger);

  it('hands out the named profile, and a coded error naming the known ones otherwise', () => {
    const s = set();
    expect(s.pipelineFor().profile).toBe('default');
    expect(s.pipelineFor('gpu').pipeline).not.toBe(s.pipelineFor().pipeline);
    expect(() => s.pipelineFor('cpu')).toThrow(
      expect.objectContaining({
        code: 'berth.scheduler.unknown_profile',
        message: 'Unknown scheduler profile "cpu"; known profiles: default, gpu',
      }),
    );
    expect(() => s.pipelineFor('gpu', ['Nope'])).toThrow(
      expect.objectContaining({ code: 'berth.scheduler.unknown_plugin' }),
    );
  });

  it('keys pipelines by generation, profile and override; a failed reload changes nothing', () => {
    raw = '{"gpu": {"filters": ["ComputeFilter"]}}';
    const s = set();
    const keys = new Set([
      s.pipelineFor().key,
      s.pipelineFor('gpu').key,
      s.pipelineFor('gpu', ['RamFilter']).key,
    ]);
    expect(keys.size).toBe(3);
    const held = s.pipelineFor('gpu');
    raw = '{"gpu": {"filters": ["RamFilter"]}, "big": {}}';
    expect(s.reload().number).toBe(2);
    expect(keys.has(s.pipelineFor('gpu').key)).toBe(false);
    expect(s.pipelineFor('gpu').pipeline).not.toBe(held.pipeline);
    expect(s.pipelineFor('big').profile).toBe('big');
    const now = s.pipelineFor('gpu');
    raw = '{"gpu": {"filters": ["RamFiltre"]}}';
    expect(() => s.reload()).toThrow(/unknown scheduler filter "RamFiltre"/);
    expect(s.current.number).toBe(2);
    expect(s.pipelineFor('gpu')).toEqual(now);
  });
});
