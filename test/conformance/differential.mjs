#!/usr/bin/env node
// Differential test of berth's REST facade against the real Placement 8.0: sends the same
// requests to both and compares status, header names (case-insensitively; casing reported) and
// bodies byte for byte after normalising request ids, dates and the servers' own base URLs.
// JSON bodies are also compared token by token, which ignores only the whitespace between
// tokens (Python's json.dumps writes ", " and ": "; berth writes none; see docs/rest-facade.md).
//
//   node test/conformance/differential.mjs --berth http://127.0.0.1:8792 \
//        --placement http://127.0.0.1:8778 [--verbose] [--only NAME]
//
// Both servers must run noauth2 (X-Auth-Token: admin) and be mounted at '/'. The requests are
// in differential-steps.mjs (new uuids every run, so neither database needs a reset).
// Differences berth keeps on purpose are normalised per step (KNOWN_STEPS) and reported as
// `known`. Exit status: 0 when every step matches (apart from those), 1 otherwise.
import http from 'node:http';
import { STEPS } from './differential-steps.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i < 0 ? dflt : args[i + 1];
};
const BERTH = opt('--berth', 'http://127.0.0.1:8792');
const PLACEMENT = opt('--placement', 'http://127.0.0.1:8778');
const VERBOSE = args.includes('--verbose');
const ONLY = opt('--only', undefined);

/** Headers whose presence or value depends on the HTTP server, not on Placement's API. */
const TRANSPORT = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'x-request-id', // berth's own access-log correlation id
  'server',
]);

function send(base, step) {
  const url = new URL(step.path, base);
  const body = step.rawBody ?? (step.body === undefined ? undefined : JSON.stringify(step.body));
  const headers = {
    'x-auth-token': 'admin',
    'openstack-api-version': `placement ${step.version ?? '1.39'}`,
    accept: 'application/json',
    connection: 'close',
    ...(step.body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(step.headers ?? {}),
  };
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: step.method, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const raw = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          raw.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
        }
        resolve({ status: res.statusCode, headers: raw, body: Buffer.concat(chunks).toString() });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

function normalise(text, base) {
  return text
    .split(base)
    .join('<base>')
    .replace(/req-[0-9a-f-]{36}/g, 'req-<id>')
    .replace(/[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT/g, '<date>');
}

/** JSON tokens of `text` (strings and numbers as written), or undefined when it is not JSON. */
function tokens(text) {
  const out = [];
  const re = /\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|[{}[\]:,])/gy;
  let pos = 0;
  while (pos < text.length) {
    const m = re.exec(text);
    if (!m) break;
    out.push(m[1]);
    pos = re.lastIndex;
  }
  return /^\s*$/.test(text.slice(pos)) && out.length ? out : undefined;
}

function compare(name, b, p) {
  if (KNOWN_STEPS[name] === 'pg500' && p.status === 500) {
    return { name, issues: [], whitespaceOnly: false, known: KNOWN.pg500[0] };
  }
  const issues = [];
  if (b.status !== p.status) {
    issues.push(`status: berth ${b.status}, placement ${p.status}`);
  }
  const bh = new Map(b.headers.map(([k, v]) => [k.toLowerCase(), [k, normalise(v, BERTH)]]));
  const ph = new Map(p.headers.map(([k, v]) => [k.toLowerCase(), [k, normalise(v, PLACEMENT)]]));
  for (const [lk, [k, v]] of ph) {
    if (TRANSPORT.has(lk)) continue;
    const other = bh.get(lk);
    if (!other) issues.push(`header ${k}: missing in berth (placement: ${v})`);
    else {
      if (other[0] !== k) issues.push(`header casing: berth ${other[0]}, placement ${k}`);
      if (other[1] !== v) issues.push(`header ${k}: berth ${other[1]} | placement ${v}`);
    }
  }
  for (const [lk, [k, v]] of bh) {
    if (!TRANSPORT.has(lk) && !ph.has(lk)) issues.push(`header ${k}: only in berth (${v})`);
  }
  const bb = normalise(b.body, BERTH);
  const pb = normalise(p.body, PLACEMENT);
  let whitespaceOnly = false;
  let known;
  if (bb !== pb) {
    const bt = tokens(bb);
    const pt = tokens(pb);
    const kind = KNOWN[KNOWN_STEPS[name]];
    if (bt && pt && bt.join('') === pt.join('')) whitespaceOnly = true;
    else if (kind && bt && pt && kind[1](bb) === kind[1](pb)) known = kind[0];
    else issues.push(`body:\n    berth:     ${bb}\n    placement: ${pb}`);
  }
  return { name, issues, whitespaceOnly, known };
}

/** Sorts every "traits" array and the keys of every "resources" object of a JSON value. */
function sortUnordered(v, key) {
  if (Array.isArray(v)) return key === 'traits' ? [...v].sort() : v.map((x) => sortUnordered(x));
  if (v && typeof v === 'object') {
    const sorted = key === 'resources' || key === 'usages';
    const keys = sorted ? Object.keys(v).sort() : Object.keys(v);
    return Object.fromEntries(keys.map((k) => [k, sortUnordered(v[k], k)]));
  }
  return v;
}

/**
 * Differences kept on purpose (docs/rest-facade.md "Differences from Placement"): a step whose
 * bodies are equal after its normaliser is reported as known, not as a failure.
 */
const KNOWN = {
  order: [
    'order of a list Placement reads without ORDER BY (provider traits, resources of an allocation, usages)',
    (text) => JSON.stringify(sortUnordered(JSON.parse(text))),
  ],
  parser: [
    "JSON syntax errors carry Node's parser message, not Python's",
    (text) =>
      JSON.stringify(JSON.parse(text)).replace(/Malformed JSON: [^"]*/, 'Malformed JSON: <msg>'),
  ],
  pg500: [
    'Placement 8.0 on PostgreSQL answers GET /usages from 1.38 without consumer_type with a 500',
    () => '',
  ],
  pprint: [
    'jsonschema messages: one-line reprs instead of pprint blocks',
    (text) => JSON.stringify(JSON.parse(text)).replace(/ {2,}/g, ' '),
  ],
};
const KNOWN_STEPS = {
  'put-rp-traits': 'order',
  'get-rp-traits': 'order',
  candidates: 'order',
  'rp-allocations': 'order',
  'usages-1.9': 'order',
  'candidates-required': 'order',
  'bad-json': 'parser',
  usages: 'pg500',
  'candidates-1.20': 'pprint',
  'bad-json-schema': 'pprint',
};

let failed = 0;
let whitespace = 0;
let knownCount = 0;
const casing = new Set();
for (const [name, method, path, body, version, headers, rawBody] of STEPS) {
  const step = { method, path, body, version, headers, rawBody };
  const b = await send(BERTH, step);
  const p = await send(PLACEMENT, step);
  const r = compare(name, b, p);
  if (ONLY && name !== ONLY) continue;
  const real = r.issues.filter((i) => !i.startsWith('header casing'));
  for (const i of r.issues) if (i.startsWith('header casing')) casing.add(i);
  if (r.whitespaceOnly) whitespace++;
  if (r.known && !real.length) {
    knownCount++;
    console.log(`known ${name}: ${r.known}`);
  }
  if (real.length) {
    failed++;
    console.log(`DIFF ${name} (${method} ${path})\n  ${real.join('\n  ')}`);
  } else if (VERBOSE) {
    console.log(`same ${name}${r.whitespaceOnly ? ' (JSON whitespace only)' : ''}`);
  }
}
for (const c of casing) console.log(`note: ${c}`);
console.log(
  `${STEPS.length - failed}/${STEPS.length} steps match (${knownCount} with a documented difference, ${whitespace} differ only in JSON whitespace); ${failed} differ`,
);
process.exit(failed ? 1 : 0);
