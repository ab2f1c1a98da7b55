// Table tests for IsolatedHostsFilter (after nova/tests/unit/scheduler/filters/
// test_isolated_hosts_filter.py): both of Nova's result matrices, and the partial configurations.
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import {
  CODE_ISOLATED_HOST,
  CODE_ISOLATED_IMAGE,
  create,
  IMAGE_ID_SPEC,
  NAME,
  REASON_ISOLATED_HOST,
  REASON_ISOLATED_IMAGE,
} from './index';

const ISOLATED_IMAGE = 'c4bf43a5-04f6-4d8c-b5a2-8f3c4f2f1e01';
const OTHER_IMAGE = '0f0d1a4e-9a55-4f7c-8e57-0c5a8d1b2c02';
const FULL = { isolatedImages: [ISOLATED_IMAGE], isolatedHosts: ['isolated_host'] };

function passes(
  config: Record<string, unknown>,
  hostIsolated: boolean,
  imageIsolated: boolean | null,
): boolean {
  const host = buildHostView({
    providers: [{ uuid: 'h1', name: hostIsolated ? 'isolated_host' : 'free_host' }],
  });
  const image = imageIsolated === null ? undefined : imageIsolated ? ISOLATED_IMAGE : OTHER_IMAGE;
  const extraSpecs: Record<string, string> = image === undefined ? {} : { [IMAGE_ID_SPEC]: image };
  const verdict = verdictOf(
    buildPlugin(create, NAME, config),
    host,
    buildRequestSpec({ extraSpecs }),
  );
  if (!verdict.fits) {
    // The host's name says what it is called, the configuration whether it is isolated.
    expect([CODE_ISOLATED_IMAGE, CODE_ISOLATED_HOST]).toContain(verdict.code);
  }
  return verdict.fits;
}

describe(NAME, () => {
  // [config, host isolated, image isolated (null: no image), passes]
  it.each<[string, Record<string, unknown>, boolean, boolean | null, boolean]>([
    ['restrictive: isolated image on a free host', FULL, false, true, false],
    ['restrictive: free image on an isolated host', FULL, true, false, false],
    ['restrictive: isolated image on an isolated host', FULL, true, true, true],
    ['restrictive: free image on a free host', FULL, false, false, true],
    ['restrictive: no image (volume-backed) on an isolated host', FULL, true, null, false],
    ['restrictive: no image on a free host', FULL, false, null, true],
    ['no configuration: isolated-looking image, free host', {}, false, true, true],
    ['no configuration: free image, isolated-named host', {}, true, false, true],
    ['no configuration: both', {}, true, true, true],
    ['no configuration: neither', {}, false, false, true],
    [
      'images only: isolated image, free host',
      { isolatedImages: [ISOLATED_IMAGE] },
      false,
      true,
      false,
    ],
    [
      'images only: free image, isolated-named host',
      { isolatedImages: [ISOLATED_IMAGE] },
      true,
      false,
      true,
    ],
    [
      'images only: isolated image, isolated-named host',
      { isolatedImages: [ISOLATED_IMAGE] },
      true,
      true,
      false,
    ],
    ['images only: neither', { isolatedImages: [ISOLATED_IMAGE] }, false, false, true],
    [
      'hosts only: isolated-looking image, free host',
      { isolatedHosts: ['isolated_host'] },
      false,
      true,
      true,
    ],
    [
      'hosts only: free image, isolated host',
      { isolatedHosts: ['isolated_host'] },
      true,
      false,
      false,
    ],
    [
      'hosts only: isolated-looking image, isolated host',
      { isolatedHosts: ['isolated_host'] },
      true,
      true,
      false,
    ],
    ['hosts only: neither', { isolatedHosts: ['isolated_host'] }, false, false, true],
  ])('%s', (_name, config, hostIsolated, imageIsolated, want) => {
    expect(passes(config, hostIsolated, imageIsolated)).toBe(want);
  });

  it.each<[string, boolean, boolean, boolean]>([
    ['free image on an isolated host', true, false, true],
    ['isolated image on an isolated host', true, true, true],
    ['free image on a free host', false, false, true],
    ['isolated image on a free host', false, true, false],
  ])('less restrictive: %s', (_name, hostIsolated, imageIsolated, want) => {
    const config = { ...FULL, restrictIsolatedHostsToIsolatedImages: false };
    expect(passes(config, hostIsolated, imageIsolated)).toBe(want);
  });

  it('compares image uuids case-insensitively and names the image in reasons', () => {
    const plugin = buildPlugin(create, NAME, FULL);
    const free = buildHostView({ providers: [{ uuid: 'h1', name: 'free_host' }] });
    const isolated = buildHostView({ providers: [{ uuid: 'h2', name: 'isolated_host' }] });
    const upper = buildRequestSpec({
      extraSpecs: { [IMAGE_ID_SPEC]: ISOLATED_IMAGE.toUpperCase() },
    });
    expect(verdictOf(plugin, isolated, upper)).toEqual({ fits: true });
    expect(verdictOf(plugin, free, upper)).toEqual({
      fits: false,
      reason: `${REASON_ISOLATED_IMAGE}: image ${ISOLATED_IMAGE}`,
      code: 'isolated_hosts.isolated_image',
    });
    expect(verdictOf(plugin, isolated, buildRequestSpec())).toEqual({
      fits: false,
      reason: `${REASON_ISOLATED_HOST}: the request has no image`,
      code: 'isolated_hosts.isolated_host',
    });
  });

  it('reads a single string as a list of one', () => {
    const plugin = buildPlugin(create, NAME, { isolatedImages: ISOLATED_IMAGE });
    const free = buildHostView({ providers: [{ uuid: 'h1', name: 'free_host' }] });
    const spec = buildRequestSpec({ extraSpecs: { [IMAGE_ID_SPEC]: ISOLATED_IMAGE } });
    expect(verdictOf(plugin, free, spec).fits).toBe(false);
  });

  it.each([
    [{ isolatedImages: [''] }, 'isolatedImages'],
    [{ isolatedHosts: [1] }, 'isolatedHosts'],
    [{ restrictIsolatedHostsToIsolatedImages: 'yes' }, 'restrictIsolatedHostsToIsolatedImages'],
  ])('rejects %j at start-up', (config, key) => {
    expect(() => buildPlugin(create, NAME, config)).toThrow(`${NAME}: config "${key}"`);
  });
});
