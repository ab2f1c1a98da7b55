// Configuration safety: loopback by default, no silently empty plugin lists, plugin configuration
// shapes checked, file contents never echoed in errors, bounded body limit, CORS origins checked,
// and an auth summary that says what each API really does.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../src/config/config';
import { authSummary } from '../../../src/http/readiness';

const PG = { DATABASE_URL: 'postgres://u@db.example:5432/berth' };

describe('loadConfig', () => {
  it('binds loopback unless BERTH_HOST says otherwise, even with DATABASE_URL and auth off', () => {
    expect(loadConfig({ ...PG, BERTH_AUTH: 'off' }).host).toBe('127.0.0.1');
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ ...PG, BERTH_HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it.each([',', ' , ', 'RamFilter,,DiskFilter'])(
    'refuses BERTH_SCHEDULER_FILTERS=%p instead of running no filters',
    (v) => {
      expect(() => loadConfig({ BERTH_SCHEDULER_FILTERS: v })).toThrow(
        /invalid BERTH_SCHEDULER_FILTERS: .* has an empty name/,
      );
    },
  );

  it("runs no filters only when told 'none'", () => {
    expect(loadConfig({ BERTH_SCHEDULER_FILTERS: 'none' }).scheduler.filters).toEqual([]);
  });

  it.each(['{"RAMWeigher":5}', '{"RAMWeigher":[1]}', '{"RAMWeigher":null}', '[]'])(
    'refuses BERTH_SCHEDULER_CONFIG=%s (each plugin takes an object)',
    (v) => {
      expect(() => loadConfig({ BERTH_SCHEDULER_CONFIG: v })).toThrow(ConfigError);
    },
  );

  it.each(['{"__proto__":{"multiplier":2}}', '{"RAMWeigher":{"__proto__":{}}}'])(
    'refuses a "__proto__" key in BERTH_SCHEDULER_CONFIG=%s instead of dropping it',
    (v) => {
      expect(() => loadConfig({ BERTH_SCHEDULER_CONFIG: v })).toThrow(
        'invalid BERTH_SCHEDULER_CONFIG: "__proto__" is not a plugin or key name',
      );
    },
  );

  it.each([
    ['{"enabledFilters": ["RamFilter"]}', 'enabledFilters', 'BERTH_SCHEDULER_FILTERS'],
    ['{"enabled_filters": "RamFilter"}', 'enabled_filters', 'BERTH_SCHEDULER_FILTERS'],
    ['{"enabledWeighers": []}', 'enabledWeighers', 'BERTH_SCHEDULER_WEIGHERS'],
  ])('points a plugin list in BERTH_SCHEDULER_CONFIG=%s to its variable', (v, key, variable) => {
    expect(() => loadConfig({ BERTH_SCHEDULER_CONFIG: v })).toThrow(
      new RegExp(
        `^invalid BERTH_SCHEDULER_CONFIG: "${key}" is not a plugin; set ${variable} to the comma-separated names in run order \\(it replaces the defaults: [A-Za-z,]+\\)$`,
      ),
    );
  });

  it('never echoes a configuration file’s contents in its error', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'berth-cfg-')), 'secret');
    writeFileSync(file, 'root:$6$SECRETHASH:19000:0:99999:7:::\n');
    let message = '';
    try {
      loadConfig({ BERTH_SCHEDULER_CONFIG: `@${file}` });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^invalid BERTH_SCHEDULER_CONFIG: .*secret is not JSON/);
    expect(message).not.toMatch(/root|SECRETHASH/);
  });

  it('bounds BERTH_MAX_BODY_BYTES', () => {
    expect(() => loadConfig({ BERTH_MAX_BODY_BYTES: String(2 ** 40) })).toThrow(
      /BERTH_MAX_BODY_BYTES/,
    );
    expect(loadConfig({ BERTH_MAX_BODY_BYTES: String(8 * 1024 * 1024) }).limits.maxBodyBytes).toBe(
      8 * 1024 * 1024,
    );
  });

  it('leaves the shared candidate layer off unless asked, and names a bad mode', () => {
    expect(loadConfig({}).scheduler.sharedCandidateCache).toBe('off');
    expect(
      loadConfig({ BERTH_CANDIDATE_SHARED_CACHE: 'gated' }).scheduler.sharedCandidateCache,
    ).toBe('gated');
    expect(() => loadConfig({ BERTH_CANDIDATE_SHARED_CACHE: 'yes' })).toThrow(
      /BERTH_CANDIDATE_SHARED_CACHE/,
    );
  });

  it('takes BERTH_METRICS_OPERATION_NAMES as a checked list of GraphQL names', () => {
    expect(loadConfig({}).metricsOperationNames).toEqual([]);
    expect(
      loadConfig({ BERTH_METRICS_OPERATION_NAMES: 'Place, ConsoleOverview,_x' })
        .metricsOperationNames,
    ).toEqual(['Place', 'ConsoleOverview', '_x']);
    for (const bad of ['Place,1Bad', 'a-b', 'x'.repeat(65)]) {
      expect(() => loadConfig({ BERTH_METRICS_OPERATION_NAMES: bad })).toThrow(
        /^invalid BERTH_METRICS_OPERATION_NAMES: '.*' is not a GraphQL operation name/,
      );
    }
  });

  it('limits each plugin worker thread’s heap to 256 MiB unless told otherwise', () => {
    expect(loadConfig({}).scheduler.pluginWorkerHeapMb).toBe(256);
    expect(loadConfig({ BERTH_PLUGIN_WORKER_HEAP_MB: '64' }).scheduler.pluginWorkerHeapMb).toBe(64);
    for (const bad of ['8', 'lots', '100000']) {
      expect(() => loadConfig({ BERTH_PLUGIN_WORKER_HEAP_MB: bad })).toThrow(
        /^invalid BERTH_PLUGIN_WORKER_HEAP_MB: /,
      );
    }
  });

  it('takes CORS origins as a checked list, none by default', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(
      loadConfig({ BERTH_CORS_ORIGINS: 'https://a.example, http://b.example:8080' }).corsOrigins,
    ).toEqual(['https://a.example', 'http://b.example:8080']);
    expect(() => loadConfig({ BERTH_CORS_ORIGINS: '*' })).toThrow(/BERTH_CORS_ORIGINS/);
  });
});

describe('authSummary', () => {
  it('says REST is unauthenticated under noauth2 even when GraphQL auth is on', () => {
    const s = authSummary(loadConfig({ ...PG, BERTH_REST_AUTH: 'noauth2' }));
    expect(s).toMatch(/^GraphQL on; REST OFF \(BERTH_REST_AUTH=noauth2/);
    expect(authSummary(loadConfig(PG))).toBe('GraphQL on; REST on (berth tokens in X-Auth-Token)');
  });
});
