// Timing GraphQL operations on a bench app (bench/bench-app.ts): p50/p95/max of n runs after two
// warm-ups, one line each; the candidate queries and the dashboard roll-ups. Used by bench/main.ts.
import type { BenchApp } from './bench-app';
import { fmt, pct } from './http/client';

const rss = () => Math.round(process.memoryUsage().rss / 2 ** 20);

const CANDIDATES = `query($r: AllocationCandidatesRequest!) {
  allocationCandidates(request: $r) { allocationRequests { mappings { suffix } } providerSummaries { traits } } }`;

export async function gql(app: BenchApp, query: string, variables: object) {
  const res = await app.graphql.fetch('http://bench/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as {
    data?: Record<string, unknown>;
    errors?: { message: string }[];
  };
  if (body.errors) {
    throw new Error(body.errors[0]!.message);
  }
  return body.data!;
}

/** Times `n` runs (after 2 warm-ups) of a GraphQL operation; `size` describes one answer. */
export async function timeGraphQL(
  app: BenchApp,
  name: string,
  op: { query: string; variables: object; size: (data: Record<string, unknown>) => string },
  n: number,
  target?: number,
) {
  const times: number[] = [];
  let size = '';
  for (let i = 0; i < n + 2; i++) {
    const t = performance.now();
    const data = await gql(app, op.query, op.variables);
    if (i >= 2) {
      times.push(performance.now() - t);
    }
    size = op.size(data);
  }
  console.log(
    `${name.padEnd(42)} p50 ${fmt(pct(times, 50), 8)} ms  p95 ${fmt(pct(times, 95), 8)} ms  max ${fmt(Math.max(...times), 8)} ms  ${size}${target ? `  (target p50 ≤ ${target} ms)` : ''}  rss ${rss()} MiB`,
  );
}

export async function timeQuery(
  app: BenchApp,
  name: string,
  request: object,
  n: number,
  target?: number,
) {
  const size = (data: Record<string, unknown>) => {
    const c = data.allocationCandidates as { allocationRequests: unknown[] };
    return `requests ${String(c.allocationRequests.length).padStart(6)}`;
  };
  await timeGraphQL(app, name, { query: CANDIDATES, variables: { r: request }, size }, n, target);
}

/** Dashboard rollups over everything seeded (answered from the capacity index). */
export async function timeRollups(app: BenchApp, n: number) {
  const providers = (await app.dataSource.query(
    'SELECT count(*)::int AS n FROM resource_providers',
  )) as {
    n: number;
  }[];
  const groups = (data: Record<string, unknown>) =>
    `groups ${String((data.capacity as unknown[]).length).padStart(6)}`;
  const LINES = 'lines { resourceClass capacity used free utilisation providers }';
  const at = `${providers[0]!.n} providers`;
  for (const groupBy of ['NONE', 'AGGREGATE', 'ROOT']) {
    await timeGraphQL(
      app,
      `capacity groupBy ${groupBy}, ${at}`,
      {
        query: `query($g: CapacityGrouping) { capacity(groupBy: $g) { providerCount ${LINES} } }`,
        variables: { g: groupBy },
        size: groups,
      },
      n,
      groupBy === 'NONE' ? 5 : undefined,
    );
  }
  await timeGraphQL(
    app,
    `20 fullest by MEMORY_MB, ${at}`,
    {
      query:
        '{ resourceProviders(first: 20, orderBy: { utilisationOf: "MEMORY_MB" }) { edges { node { name } } } }',
      variables: {},
      size: () => 'rows 20',
    },
    n,
  );
}
