// What the HTTP bench measures against one running `berth serve`: candidate answers (REST and
// GraphQL, one client, sequential like bench.mjs -c 1), concurrent read throughput, the Nova-style
// REST claim loop (candidates limit 50 + PUT /allocations) and the GraphQL `schedule` loop. Every
// line prints p50/p95/max, answer size, the server's CPU ms per request and its RSS.
import { randomUUID } from 'node:crypto';
import { type BenchClient, concurrently, fmt, pct } from './client';
import type { ServeProcess } from './server';

/** Prints one line. */
export type Log = (line: string) => void;

/** The REST facade's mount point and the microversion every REST call sends. */
export const REST = '/placement';
export const REST_HEADERS = { 'openstack-api-version': 'placement 1.39' };

const FLAVOR = 'VCPU:2,MEMORY_MB:4096,DISK_GB:20';

/**
 * The bench.mjs candidate queries (names as there), given the seeded aggregates; `diskGb` asks
 * for another disk size than the flavor's 20 GB (every seeded host has room for up to 83).
 */
export function restQueries(
  aggs: readonly string[],
  limit?: number,
  diskGb = 20,
): [string, string][] {
  const flavor = `VCPU:2,MEMORY_MB:4096,DISK_GB:${diskGb}`;
  const plain = `resources=${flavor}${limit ? `&limit=${limit}` : ''}`;
  const all: [string, string][] = [
    ['plain', plain],
    ['required-trait', `${plain}&required=HW_CPU_X86_AVX2`],
    ['forbidden-trait', `${plain}&required=!CUSTOM_GOLD`],
    ['member-of-any', `${plain}&member_of=in:${aggs[0]},${aggs[1]}`],
    ['member-of-forbidden', `${plain}&member_of=!${aggs[2]}`],
  ];
  if (!limit) {
    all.push(['limit-10', `${plain}&limit=10`]);
  }
  return all;
}

/** The GraphQL query returning the same data as the REST answer. */
export const GQL_CANDIDATES = `query($r: AllocationCandidatesRequest!) { allocationCandidates(request: $r) {
  allocationRequests { allocations { provider { uuid } resources { resourceClass amount } } mappings { suffix providerUuids } }
  providerSummaries { provider { uuid } resources { resourceClass capacity used } traits } } }`;

/** The GraphQL request of the plain flavor (or of another disk size, see restQueries). */
export function gqlRequest(limit?: number, extra: object = {}, diskGb = 20) {
  return {
    groups: [
      {
        resources: [
          { resourceClass: 'VCPU', amount: 2 },
          { resourceClass: 'MEMORY_MB', amount: 4096 },
          { resourceClass: 'DISK_GB', amount: diskGb },
        ],
        ...extra,
      },
    ],
    ...(limit ? { limit } : {}),
  };
}

/**
 * Calls made before timing: a second of them (at least 3, at most 200), so the figures are those
 * of a warm server (a served process runs for days; its first calls compile the hot paths).
 */
const WARM_MS = 1000;

/** Times `n` sequential calls of `call` after warming up (WARM_MS) and prints one line. */
export async function timeSequential(
  label: string,
  server: ServeProcess,
  n: number,
  call: () => Promise<{ status: number; body: string; ms: number }>,
  log: Log,
  describe: (body: string) => string = () => '',
): Promise<number> {
  let last = { status: 0, body: '', ms: 0 };
  const warmStart = performance.now();
  for (let i = 0; i < 200 && (i < 3 || performance.now() - warmStart < WARM_MS); i++) {
    last = await call();
  }
  if (last.status !== 200) {
    throw new Error(`${label}: HTTP ${last.status} ${last.body.slice(0, 300)}`);
  }
  const cpu0 = server.cpuMs();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    last = await call();
    times.push(last.ms);
  }
  const cpu = (server.cpuMs() - cpu0) / n;
  const p50 = pct(times, 50);
  log(
    `  ${label.padEnd(46)} p50 ${fmt(p50)} ms  p95 ${fmt(pct(times, 95))}  max ${fmt(Math.max(...times))}  ${String(Math.round(last.body.length / 1024)).padStart(5)} KB  ${describe(last.body)}  server ${fmt(cpu, 5)} CPU-ms/req  rss ${server.rssMiB().join('+')} MiB`,
  );
  return p50;
}

/** Counts of a REST allocation-candidates answer. */
export function restCounts(body: string): string {
  const b = JSON.parse(body) as {
    allocation_requests: unknown[];
    provider_summaries: Record<string, unknown>;
  };
  return `requests ${String(b.allocation_requests.length).padStart(5)} summaries ${String(Object.keys(b.provider_summaries).length).padStart(5)}`;
}

/** Counts of a GraphQL allocation-candidates answer. */
export function gqlCounts(body: string): string {
  const c = (
    JSON.parse(body) as {
      data: {
        allocationCandidates: { allocationRequests: unknown[]; providerSummaries: unknown[] };
      };
    }
  ).data.allocationCandidates;
  return `requests ${String(c.allocationRequests.length).padStart(5)} summaries ${String(c.providerSummaries.length).padStart(5)}`;
}

/** Requests per second of `clients` concurrent loops of `call` for `total` calls. */
export async function throughput(
  label: string,
  server: ServeProcess,
  clients: number,
  total: number,
  call: () => Promise<{ status: number }>,
  log: Log,
): Promise<number> {
  const cpu0 = server.cpuMs();
  let bad = 0;
  const secs = await concurrently(clients, total, async () => {
    if ((await call()).status !== 200) {
      bad++;
    }
  });
  const rate = total / secs;
  log(
    `  ${label.padEnd(46)} ${fmt(rate, 8)} req/s  (${clients} clients, ${total} requests, ${bad} not 200)  server ${fmt((server.cpuMs() - cpu0) / total, 5)} CPU-ms/req  rss ${server.rssMiB().join('+')} MiB`,
  );
  return rate;
}

interface ClaimTally {
  ok: number;
  conflicts: number;
  failed: number;
  readonly put: number[];
  readonly get: number[];
}

/**
 * The Nova report-client loop over REST: GET candidates limit `limit`, PUT one at random; on 409
 * fetch again (up to 10 tries). Returns claims per second.
 */
export async function restClaimLoop(
  client: BenchClient,
  server: ServeProcess,
  opts: { clients: number; claims: number; limit: number },
  log: Log,
): Promise<number> {
  const t: ClaimTally = { ok: 0, conflicts: 0, failed: 0, put: [], get: [] };
  const cpu0 = server.cpuMs();
  const secs = await concurrently(opts.clients, opts.claims, async () => {
    const consumer = randomUUID();
    for (let attempt = 0; attempt < 10; attempt++) {
      const g = await client.send(
        'GET',
        `${REST}/allocation_candidates?resources=${FLAVOR}&limit=${opts.limit}`,
        undefined,
        REST_HEADERS,
      );
      t.get.push(g.ms);
      const reqs = (JSON.parse(g.body) as { allocation_requests?: { allocations: object }[] })
        .allocation_requests;
      if (g.status !== 200 || !reqs?.length) {
        t.failed++;
        return;
      }
      const pick = reqs[Math.floor(Math.random() * reqs.length)]!;
      const p = await client.send(
        'PUT',
        `${REST}/allocations/${consumer}`,
        {
          allocations: pick.allocations,
          project_id: 'bench-rest',
          user_id: 'bench',
          consumer_generation: null,
          consumer_type: 'INSTANCE',
        },
        REST_HEADERS,
      );
      t.put.push(p.ms);
      if (p.status === 204) {
        t.ok++;
        return;
      }
      if (p.status !== 409) {
        t.failed++;
        return;
      }
      t.conflicts++;
    }
    t.failed++;
  });
  const rate = t.ok / secs;
  log(
    `  REST claim loop (limit ${opts.limit} + PUT), ${opts.clients} clients      ${fmt(rate, 8)} claims/s  (${t.ok} ok, ${t.conflicts} 409 retried, ${t.failed} failed, ${secs.toFixed(1)} s)  GET p50 ${fmt(pct(t.get, 50))} ms  PUT p50 ${fmt(pct(t.put, 50))} ms p95 ${fmt(pct(t.put, 95))}  server ${fmt((server.cpuMs() - cpu0) / t.ok, 5)} CPU-ms/claim`,
  );
  return rate;
}

const SCHEDULE = `mutation($i: ScheduleInput!) { schedule(input: $i) { selections { host { uuid } reason } } }`;

/** `schedule` with `clients` concurrent GraphQL callers; returns claims per second. */
export async function scheduleLoop(
  client: BenchClient,
  server: ServeProcess,
  opts: { clients: number; claims: number; limit?: number; extraSpecs?: object[] },
  log: Log,
): Promise<number> {
  let ok = 0;
  let noHost = 0;
  const times: number[] = [];
  const cpu0 = server.cpuMs();
  const secs = await concurrently(opts.clients, opts.claims, async () => {
    const r = await client.graphql(SCHEDULE, {
      i: {
        consumerUuids: [randomUUID()],
        projectId: 'bench-gql',
        userId: 'bench',
        consumerType: 'INSTANCE',
        request: gqlRequest(opts.limit),
        ...(opts.extraSpecs ? { extraSpecs: opts.extraSpecs } : {}),
      },
    });
    times.push(r.ms);
    const sel = (r.data as { schedule: { selections: { host: unknown }[] } }).schedule.selections;
    if (sel[0]?.host) {
      ok++;
    } else {
      noHost++;
    }
  });
  const rate = ok / secs;
  log(
    `  GraphQL schedule, ${opts.clients} callers                    ${fmt(rate, 8)} claims/s  (${ok} ok, ${noHost} no host, ${secs.toFixed(1)} s)  p50 ${fmt(pct(times, 50))} ms p95 ${fmt(pct(times, 95))}  server ${fmt((server.cpuMs() - cpu0) / Math.max(1, ok), 5)} CPU-ms/claim  rss ${server.rssMiB().join('+')} MiB`,
  );
  return rate;
}
