// REDIS_URL parsing (src/cache/redis-url.ts): redis:// and rediss:// pass through unchanged; the
// Sentinel forms become ioredis Sentinel options, checked on a table of written URLs and on
// generated ones (any hosts, ports, master names, db numbers and credentials, percent-encoded);
// bad URLs are refused at configuration load with a message that names the problem and never
// quotes a password.
import fc from 'fast-check';
import { parseRedisUrl } from '../../../src/cache/redis-url';
import { ConfigError, loadConfig } from '../../../src/config/config';

describe('parseRedisUrl', () => {
  it.each([
    'redis://127.0.0.1:6379',
    'redis://:secret@cache.example:6380/2',
    'rediss://user:pw@cache.example/0?family=6',
  ])('passes %s to ioredis unchanged', (url) => {
    expect(parseRedisUrl(url)).toBe(url);
  });

  it.each<[string, object]>([
    [
      'redis+sentinel://127.0.0.1:26379,127.0.0.1:26380/berth',
      {
        sentinels: [
          { host: '127.0.0.1', port: 26379 },
          { host: '127.0.0.1', port: 26380 },
        ],
        name: 'berth',
        db: 0,
      },
    ],
    [
      'redis+sentinel://s1,s2:26400,[::1]:26401,[fe80::1]/my%20master/3/',
      {
        sentinels: [
          { host: 's1', port: 26379 },
          { host: 's2', port: 26400 },
          { host: '::1', port: 26401 },
          { host: 'fe80::1', port: 26379 },
        ],
        name: 'my master',
        db: 3,
      },
    ],
    [
      'redis+sentinel://:p%40ss@s1:26379/berth?sentinelPassword=s%26p',
      {
        sentinels: [{ host: 's1', port: 26379 }],
        name: 'berth',
        db: 0,
        password: 'p@ss',
        sentinelPassword: 's&p',
      },
    ],
    [
      'redis+sentinel://app:pw@s1:1/berth/15?sentinelUsername=watch&sentinelPassword=x',
      {
        sentinels: [{ host: 's1', port: 1 }],
        name: 'berth',
        db: 15,
        username: 'app',
        password: 'pw',
        sentinelUsername: 'watch',
        sentinelPassword: 'x',
      },
    ],
    [
      'redis+sentinel://app@s1:65535/berth',
      { sentinels: [{ host: 's1', port: 65535 }], name: 'berth', db: 0, username: 'app' },
    ],
    [
      'rediss+sentinel://:pw@sentinel-a.example:26379/berth/1',
      {
        sentinels: [{ host: 'sentinel-a.example', port: 26379 }],
        name: 'berth',
        db: 1,
        password: 'pw',
        tls: {},
        enableTLSForSentinelMode: true,
      },
    ],
  ])('reads %s', (url, options) => {
    expect(parseRedisUrl(url)).toEqual(options);
  });

  it.each<[string, RegExp]>([
    ['http://cache:6379', /must be a redis:\/\/, rediss:\/\/, redis\+sentinel:\/\/ or rediss\+/],
    ['sentinel://s1:26379/berth', /must be a redis:\/\//],
    ['REDIS+SENTINEL://s1/berth', /must be a redis:\/\//],
    ['redis+sentinel:///berth', /names no Sentinel: write redis\+sentinel:\/\//],
    ['redis+sentinel://:pw@/berth', /names no Sentinel/],
    ['redis+sentinel://s1:26379', /names no master: write redis\+sentinel:\/\//],
    ['redis+sentinel://s1:26379/', /names no master/],
    ['rediss+sentinel://s1:26379//0', /names no master: write rediss\+sentinel:\/\//],
    ['redis+sentinel://s1:0/berth', /Sentinel 's1:0' has a bad port \(1-65535\)/],
    ['redis+sentinel://s1:65536/berth', /Sentinel 's1:65536' has a bad port/],
    ['redis+sentinel://s1:/berth', /Sentinel 's1:' has a bad port/],
    ['redis+sentinel://s1:26379,s2:port/berth', /Sentinel 's2:port' has a bad port/],
    ['redis+sentinel://[::1]:99999/berth', /Sentinel '\[::1\]:99999' has a bad port/],
    ['redis+sentinel://s1,,s2/berth', /a Sentinel host is empty/],
    ['redis+sentinel://s1,/berth', /a Sentinel host is empty/],
    [
      'redis+sentinel://::1:26379/berth',
      /'::1' is not a host name or address \(IPv6 goes in brackets/,
    ],
    ['redis+sentinel://s 1:26379/berth', /'s 1' is not a host name/],
    ['redis+sentinel://s1/berth/x', /'\/x' after the master name is not a db number/],
    ['redis+sentinel://s1/berth/0/1', /'\/0\/1' after the master name is not a db number/],
    [
      'redis+sentinel://s1/berth?password=x',
      /unknown parameter 'password' \(known: sentinelPassword/,
    ],
    ['redis+sentinel://s1/%E0%A4%A', /the master name is not valid percent-encoding/],
  ])('refuses %s', (url, message) => {
    expect(() => parseRedisUrl(url)).toThrow(message);
  });

  const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);
  const host = fc.oneof(
    fc.array(label, { minLength: 1, maxLength: 3 }).map((ls) => ls.join('.')),
    fc.ipV4(),
    fc.ipV6().map((a) => `[${a}]`),
  );
  const sentinel = fc.record({ host, port: fc.option(fc.integer({ min: 1, max: 65535 })) });
  const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 12 });

  it('reads every generated Sentinel URL back into the parts it was written from', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('redis', 'rediss'),
        fc.array(sentinel, { minLength: 1, maxLength: 5 }),
        text,
        fc.option(fc.integer({ min: 0, max: 99_999 })),
        fc.option(fc.record({ user: fc.option(text), password: text })),
        fc.option(text),
        (scheme, sentinels, name, db, auth, sentinelPassword) => {
          const hosts = sentinels.map((s) => (s.port === null ? s.host : `${s.host}:${s.port}`));
          const userinfo = auth
            ? `${encodeURIComponent(auth.user ?? '')}:${encodeURIComponent(auth.password)}@`
            : '';
          const query =
            sentinelPassword === null ? '' : `?${new URLSearchParams({ sentinelPassword })}`;
          const url = `${scheme}+sentinel://${userinfo}${hosts.join(',')}/${encodeURIComponent(name)}${db === null ? '' : `/${db}`}${query}`;
          expect(parseRedisUrl(url)).toEqual({
            sentinels: sentinels.map((s) => ({
              host: s.host.replace(/^\[|\]$/g, ''),
              port: s.port ?? 26379,
            })),
            name,
            db: db ?? 0,
            ...(auth?.user ? { username: auth.user } : {}),
            ...(auth ? { password: auth.password } : {}),
            ...(sentinelPassword === null ? {} : { sentinelPassword }),
            ...(scheme === 'rediss' ? { tls: {}, enableTLSForSentinelMode: true } : {}),
          });
        },
      ),
    );
  });

  it('refuses every generated URL with a port out of range, naming that Sentinel', () => {
    fc.assert(
      fc.property(
        fc.array(sentinel, { maxLength: 3 }),
        host,
        fc.oneof(fc.constant(0), fc.integer({ min: 65_536, max: 99_999 })),
        (others, bad, port) => {
          const hosts = [...others.map((s) => `${s.host}:${s.port ?? 26379}`), `${bad}:${port}`];
          expect(() => parseRedisUrl(`redis+sentinel://${hosts.join(',')}/berth`)).toThrow(
            `Sentinel '${bad}:${port}' has a bad port (1-65535)`,
          );
        },
      ),
    );
  });
});

describe('REDIS_URL in the configuration', () => {
  it('accepts the Sentinel form and keeps the URL as written', () => {
    const url = 'redis+sentinel://:pw@s1:26379,s2:26379/berth/1?sentinelPassword=sp';
    expect(loadConfig({ REDIS_URL: url }).redisUrl).toBe(url);
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/0' }).redisUrl).toBe(
      'redis://127.0.0.1:6379/0',
    );
  });

  it.each<[string, string]>([
    [
      'memcached://cache:11211',
      'invalid REDIS_URL: must be a redis://, rediss://, redis+sentinel:// or rediss+sentinel:// URL',
    ],
    [
      'redis+sentinel://:hunter2@s1:26379',
      'invalid REDIS_URL: names no master: write redis+sentinel://[user:password@]host:port,host:port,.../<masterName>[/<db>]',
    ],
    [
      'redis+sentinel://:hunter2@/berth',
      'invalid REDIS_URL: names no Sentinel: write redis+sentinel://',
    ],
    [
      'redis+sentinel://:hunter2@s1:263790/berth?sentinelPassword=hunter3',
      "invalid REDIS_URL: Sentinel 's1:263790' has a bad port (1-65535)",
    ],
  ])('refuses %s at load, without quoting the password', (url, message) => {
    const load = () => loadConfig({ REDIS_URL: url });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(message);
    expect(load).not.toThrow(/hunter/);
  });
});
