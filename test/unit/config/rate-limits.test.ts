// The rate-limit variables: defaults (tokens and auth-off callers unlimited, failed
// authentications 3000 per 10 s per address), BERTH_RATE_LIMIT_ROLES parsing, and errors that
// name the variable.
import { ConfigError, loadConfig } from '../../../src/config/config';

describe('rate-limit configuration', () => {
  it('limits only failed authentications by default', () => {
    expect(loadConfig({}).limits.rateLimits).toEqual({
      windowMs: 10_000,
      failedAuth: 3000,
      anonymous: 0,
      roles: {},
    });
  });

  it('reads every variable', () => {
    const c = loadConfig({
      BERTH_RATE_LIMIT: '0',
      BERTH_RATE_LIMIT_WINDOW_MS: '1000',
      BERTH_RATE_LIMIT_ANONYMOUS: '50',
      BERTH_RATE_LIMIT_ROLES: ' reader=600, scheduler = 0 ,admin=0,',
    });
    expect(c.limits.rateLimits).toEqual({
      windowMs: 1000,
      failedAuth: 0,
      anonymous: 50,
      roles: { reader: 600, scheduler: 0, admin: 0 },
    });
  });

  it.each([
    [
      'BERTH_RATE_LIMIT_ROLES',
      'root=5',
      "invalid BERTH_RATE_LIMIT_ROLES: unknown role 'root' (roles: member, reader, scheduler, service, admin)",
    ],
    [
      'BERTH_RATE_LIMIT_ROLES',
      'reader=-1',
      "invalid BERTH_RATE_LIMIT_ROLES: 'reader=-1' is not role=number; write e.g. reader=600,scheduler=0",
    ],
    [
      'BERTH_RATE_LIMIT_ROLES',
      'reader',
      "invalid BERTH_RATE_LIMIT_ROLES: 'reader' is not role=number; write e.g. reader=600,scheduler=0",
    ],
    [
      'BERTH_RATE_LIMIT_ROLES',
      'reader=1,reader=2',
      "invalid BERTH_RATE_LIMIT_ROLES: role 'reader' is listed twice",
    ],
    [
      'BERTH_RATE_LIMIT_ROLES',
      'admin=1e99',
      "invalid BERTH_RATE_LIMIT_ROLES: 'admin=1e99' is not role=number; write e.g. reader=600,scheduler=0",
    ],
    [
      'BERTH_RATE_LIMIT_ROLES',
      'admin=99999999999999999999',
      "invalid BERTH_RATE_LIMIT_ROLES: 99999999999999999999 is too large a limit for role 'admin'",
    ],
    ['BERTH_RATE_LIMIT_ANONYMOUS', '-1', /^invalid BERTH_RATE_LIMIT_ANONYMOUS: /],
    ['BERTH_RATE_LIMIT_ANONYMOUS', 'lots', /^invalid BERTH_RATE_LIMIT_ANONYMOUS: /],
    ['BERTH_RATE_LIMIT', '1.5', /^invalid BERTH_RATE_LIMIT: /],
  ])('%s=%s is refused with a message naming it', (name, value, message) => {
    const load = () => loadConfig({ [name]: value });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(message);
  });
});
