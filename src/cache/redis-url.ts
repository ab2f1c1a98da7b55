// The forms REDIS_URL takes, turned into what ioredis is given. A redis:// or rediss:// URL names
// one Redis and is passed to ioredis as it is. A Sentinel URL names the Sentinels that watch a
// master group and the group's name; ioredis asks a Sentinel for the group's current master, and
// asks again whenever the connection to it is lost, so a Redis failover needs no restart:
//
//   redis+sentinel://[user:password@]host1:port1,host2:port2,.../<masterName>[/<db>][?sentinelPassword=...]
//
// `rediss+sentinel://` reaches the master over TLS (the Sentinels themselves without). The user
// and password before `@` are the master's (Redis AUTH; as in redis://, `user@` alone is a user
// name without password); the Sentinels' own password, when they have one, is the
// `sentinelPassword` parameter (and `sentinelUsername` its ACL user). A host without a port is
// Sentinel's default, 26379. The configuration loads this file: it imports only ioredis' types.
import type { RedisOptions } from 'ioredis';

const DEFAULT_SENTINEL_PORT = 26379;
const SENTINEL_PARAMS = ['sentinelPassword', 'sentinelUsername'] as const;
const FORM = '<scheme>://[user:password@]host:port,host:port,.../<masterName>[/<db>]';

function port(host: string, text: string | undefined): number {
  if (text === undefined) {
    return DEFAULT_SENTINEL_PORT;
  }
  const n = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(n >= 1 && n <= 65535)) {
    throw new Error(`Sentinel '${host}:${text}' has a bad port (1-65535)`);
  }
  return n;
}

/** `host`, `host:port`, `[v6]` or `[v6]:port` as ioredis' Sentinel address. */
function sentinelAddress(text: string): { host: string; port: number } {
  const v6 = /^\[([0-9A-Fa-f:.]+)\](?::(.*))?$/.exec(text);
  if (v6) {
    return { host: v6[1]!, port: port(`[${v6[1]}]`, v6[2]) };
  }
  const colon = text.lastIndexOf(':');
  const host = colon === -1 ? text : text.slice(0, colon);
  if (!/^[A-Za-z0-9._-]+$/.test(host)) {
    throw new Error(
      host === ''
        ? 'a Sentinel host is empty (hosts are comma-separated, e.g. s1:26379,s2:26379)'
        : `'${host}' is not a host name or address (IPv6 goes in brackets: [::1]:26379)`,
    );
  }
  return { host, port: port(host, colon === -1 ? undefined : text.slice(colon + 1)) };
}

function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new Error(`the ${what} is not valid percent-encoding`);
  }
}

/**
 * The ioredis connection a REDIS_URL names: the URL itself for redis:// and rediss://, Sentinel
 * options for redis+sentinel:// and rediss+sentinel://. Throws an Error saying what is wrong
 * (never quoting a password) when the URL is not one of these forms.
 */
export function parseRedisUrl(url: string): string | RedisOptions {
  if (/^rediss?:\/\//.test(url)) {
    return url;
  }
  const scheme = /^(rediss?)\+sentinel:\/\//.exec(url);
  if (!scheme) {
    throw new Error('must be a redis://, rediss://, redis+sentinel:// or rediss+sentinel:// URL');
  }
  const form = FORM.replace('<scheme>', `${scheme[1]}+sentinel`);
  let rest = url.slice(scheme[0].length);
  const q = rest.indexOf('?');
  const query = new URLSearchParams(q === -1 ? '' : rest.slice(q + 1));
  rest = q === -1 ? rest : rest.slice(0, q);
  const slash = rest.indexOf('/');
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  const path = slash === -1 ? '' : rest.slice(slash + 1);

  const at = authority.lastIndexOf('@');
  const hostList = authority.slice(at + 1);
  if (hostList === '') {
    throw new Error(`names no Sentinel: write ${form}`);
  }
  const sentinels = hostList.split(',').map(sentinelAddress);

  const segments = path.replace(/\/$/, '').split('/');
  const name = decode(segments[0] ?? '', 'master name');
  if (name === '') {
    throw new Error(`names no master: write ${form}`);
  }
  if (segments.length > 2 || (segments.length === 2 && !/^\d{1,5}$/.test(segments[1]!))) {
    throw new Error(`'/${segments.slice(1).join('/')}' after the master name is not a db number`);
  }
  const options: RedisOptions = {
    sentinels,
    name,
    db: segments.length === 2 ? Number(segments[1]) : 0,
  };

  if (at !== -1) {
    const userinfo = authority.slice(0, at);
    const colon = userinfo.indexOf(':');
    const user = decode(colon === -1 ? userinfo : userinfo.slice(0, colon), 'user name');
    const password = decode(colon === -1 ? '' : userinfo.slice(colon + 1), 'password');
    if (user !== '') {
      options.username = user;
    }
    if (password !== '') {
      options.password = password;
    }
  }
  for (const key of new Set(query.keys())) {
    if (!(SENTINEL_PARAMS as readonly string[]).includes(key)) {
      throw new Error(`unknown parameter '${key}' (known: ${SENTINEL_PARAMS.join(', ')})`);
    }
    options[key as (typeof SENTINEL_PARAMS)[number]] = query.get(key) ?? undefined;
  }
  if (scheme[1] === 'rediss') {
    // ioredis applies `tls` to the master it is sent to only with this flag.
    options.tls = {};
    options.enableTLSForSentinelMode = true;
  }
  return options;
}
