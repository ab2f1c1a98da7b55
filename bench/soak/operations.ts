// The writes claimers make — claim (GraphQL schedule, GraphQL setAllocations, REST PUT),
// resize (setAllocations with the consumer generation) and release (GraphQL deleteAllocations,
// setAllocations [], REST DELETE) — each recorded in the ledger by what its answer proves.
import { randomUUID } from 'node:crypto';
import { inDoubt, type Reply } from './client';
import { ANY_PROVIDER, type ConsumerEntry, type Holding, type Ledger } from './ledger';
import type { Router, Target } from './router';
import type { Stats } from './stats';

const SCHEDULE = `mutation($i: ScheduleInput!) { schedule(input: $i) {
  selections { host { uuid } allocations { provider { uuid } resources { resourceClass amount } } }
  failures } }`;
const SET = `mutation($i: [ConsumerAllocationsInput!]!) { setAllocations(input: $i) { uuid generation } }`;
const DELETE = 'mutation($u: ID!) { deleteAllocations(input: { consumerUuid: $u }) }';

/** What operations need. */
export interface OpContext {
  readonly ledger: Ledger;
  readonly stats: Stats;
  readonly router: Router;
  /** Root provider uuids that claims may target directly. */
  readonly hosts: readonly string[];
  readonly project: string;
}

type Amounts = Record<string, number>;
const rand = (n: number) => Math.floor(Math.random() * n);
const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)]!;

function flavor(): Amounts {
  return {
    VCPU: pick([1, 2, 2, 4]),
    MEMORY_MB: pick([1024, 2048, 4096]),
    DISK_GB: pick([10, 20, 40]),
  };
}

function resources(a: Amounts) {
  return Object.entries(a).map(([resourceClass, amount]) => ({ resourceClass, amount }));
}

async function send<T>(
  ctx: OpContext,
  t: Target,
  op: string,
  call: () => Promise<Reply<T>>,
): Promise<Reply<T>> {
  const r = await call();
  ctx.stats.note(op, r, t.name);
  ctx.router.observe(t, r);
  return r;
}

/** The audit operations of the soak's writes (src/placement/audit.ts names them so). */
const OP = {
  schedule: 'mutation schedule',
  set: 'mutation setAllocations',
  delete: 'mutation deleteAllocations',
  restPut: 'PUT /allocations/{consumer_uuid}',
  restDelete: 'DELETE /allocations/{consumer_uuid}',
} as const;

/**
 * Records in the ledger what the answer `r` to a write of `e` proves for the audit check: ok and
 * `wrote` = committed (one event), a clean refusal or ok without a write = none, else in doubt.
 */
function record(
  ctx: OpContext,
  e: ConsumerEntry,
  operation: string,
  r: Reply,
  holds: boolean,
  wrote = r.outcome === 'ok',
): void {
  const outcome = wrote ? 'committed' : inDoubt(r.outcome) ? 'doubt' : 'none';
  ctx.ledger.sent(e, { operation, requestId: r.requestId, outcome, holds });
}

/** Claims a new consumer on replica `t` via `via`. Returns the entry when it may hold something. */
export async function claim(
  ctx: OpContext,
  t: Target,
  via: ConsumerEntry['via'],
): Promise<ConsumerEntry | undefined> {
  const uuid = randomUUID();
  const want = flavor();
  ctx.stats.claimAttempts++;
  const e = ctx.ledger.create(uuid, via);
  const common = { projectId: ctx.project, userId: 'soak', consumerType: 'INSTANCE' };
  if (via === 'schedule') {
    type Data = {
      selections: {
        host: { uuid: string } | null;
        allocations: {
          provider: { uuid: string };
          resources: { resourceClass: string; amount: number }[];
        }[];
      }[];
      failures: string[];
    };
    const r = await send(ctx, t, 'claim:schedule', () =>
      t.client.graphql<Data>(
        SCHEDULE,
        {
          i: {
            ...common,
            consumerUuids: [uuid],
            request: { groups: [{ resources: resources(want) }], limit: 50 },
          },
        },
        'schedule',
      ),
    );
    record(ctx, e, OP.schedule, r, true, r.outcome === 'ok' && !!r.data?.selections[0]?.host);
    if (r.outcome === 'ok' && r.data) {
      ctx.stats.pluginFailures += r.data.failures.length;
      const sel = r.data.selections[0];
      if (!sel?.host) {
        ctx.stats.noHost++;
        return undefined;
      }
      const h: Record<string, Amounts> = {};
      for (const a of sel.allocations) {
        h[a.provider.uuid] = Object.fromEntries(
          a.resources.map((x) => [x.resourceClass, x.amount]),
        );
      }
      ctx.ledger.acknowledged(e, h);
      ctx.stats.claimsAcked++;
      return e;
    }
    if (inDoubt(r.outcome)) {
      ctx.ledger.inDoubt(e, { [ANY_PROVIDER]: want });
      return e;
    }
    return undefined;
  }
  const host = pick(ctx.hosts);
  const holding: Holding = { [host]: want };
  const r =
    via === 'setAllocations'
      ? await send(ctx, t, 'claim:setAllocations', () =>
          t.client.graphql<{ uuid: string; generation: number }[]>(
            SET,
            {
              i: [
                {
                  ...common,
                  consumerUuid: uuid,
                  consumerGeneration: null,
                  allocations: [{ providerUuid: host, resources: resources(want) }],
                },
              ],
            },
            'setAllocations',
          ),
        )
      : await send(ctx, t, 'claim:rest-put', () =>
          t.client.rest('PUT', `/allocations/${uuid}`, {
            allocations: { [host]: { resources: want } },
            project_id: ctx.project,
            user_id: 'soak',
            consumer_generation: null,
            consumer_type: 'INSTANCE',
          }),
        );
  record(ctx, e, via === 'setAllocations' ? OP.set : OP.restPut, r, true);
  if (r.outcome === 'ok') {
    const gen = Array.isArray(r.data)
      ? (r.data[0] as { generation: number }).generation
      : undefined;
    ctx.ledger.acknowledged(e, holding, gen);
    ctx.stats.claimsAcked++;
    return e;
  }
  if (inDoubt(r.outcome)) {
    ctx.ledger.inDoubt(e, holding);
    return e;
  }
  return undefined;
}

/** Changes the amounts of a consumer whose generation and holding are known (CAS write). */
export async function resize(ctx: OpContext, t: Target, e: ConsumerEntry): Promise<void> {
  const known = ctx.ledger.known(e);
  if (!known || e.generation === undefined) {
    return;
  }
  const [rp] = Object.keys(known);
  const want = flavor();
  const next: Holding = { [rp!]: want };
  const r = await send(ctx, t, 'resize:setAllocations', () =>
    t.client.graphql<{ uuid: string; generation: number }[]>(
      SET,
      setVariables(ctx, e, [{ providerUuid: rp, resources: resources(want) }]),
      'setAllocations',
    ),
  );
  record(ctx, e, OP.set, r, true);
  if (r.outcome === 'ok' && r.data) {
    ctx.ledger.acknowledged(e, next, r.data[0]!.generation);
    ctx.stats.resizesAcked++;
  } else if (inDoubt(r.outcome)) {
    ctx.ledger.inDoubt(e, next);
  }
}

/** Variables of SET replacing `e`'s allocations at its known consumer generation. */
function setVariables(ctx: OpContext, e: ConsumerEntry, allocations: unknown[]) {
  return {
    i: [
      {
        consumerUuid: e.uuid,
        projectId: ctx.project,
        userId: 'soak',
        consumerGeneration: e.generation,
        allocations,
      },
    ],
  };
}

/** Releases a consumer. Returns true once the client knows it holds nothing. */
export async function release(ctx: OpContext, t: Target, e: ConsumerEntry): Promise<boolean> {
  const known = ctx.ledger.known(e);
  const useSet = e.generation !== undefined && Math.random() < 0.4;
  const useRest = !useSet && Math.random() < 0.3;
  let r: Reply;
  if (useSet) {
    r = await send(ctx, t, 'release:setAllocations', () =>
      t.client.graphql(SET, setVariables(ctx, e, []), 'setAllocations'),
    );
  } else if (useRest) {
    r = await send(ctx, t, 'release:rest-delete', () =>
      t.client.rest('DELETE', `/allocations/${e.uuid}`),
    );
  } else {
    r = await send(ctx, t, 'release:deleteAllocations', () =>
      t.client.graphql(DELETE, { u: e.uuid }, 'deleteAllocations'),
    );
  }
  record(ctx, e, useSet ? OP.set : useRest ? OP.restDelete : OP.delete, r, false);
  if (r.outcome === 'ok') {
    ctx.ledger.acknowledged(e, null);
    ctx.stats.releasesAcked++;
    return true;
  }
  const notFound = r.status === 404 || r.errorStatus === 404;
  if (notFound && known === undefined) {
    // An in-doubt write that never committed: the consumer is known absent now.
    ctx.ledger.acknowledged(e, null);
    return true;
  }
  if (notFound) {
    // The client was told it held these allocations; the final check reports it as lost.
    ctx.stats.releaseNotFound++;
    return true;
  }
  if (inDoubt(r.outcome)) {
    ctx.ledger.inDoubt(e, null);
  } else {
    // e.g. a stale generation: release by uuid next time.
    e.generation = undefined;
  }
  return false;
}
