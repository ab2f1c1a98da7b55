// What a drain plan reads from the database: the hosts to drain (checked: known root providers,
// 1 to MAX_DRAIN_HOSTS of them) and every consumer with allocations on any provider of their
// trees — its owner, what it holds on those trees, its server group and whether it is already
// moving — ordered largest first.
import type { DataSource } from 'typeorm';
import { allocationsOnTrees, type TreeAllocationRow } from '../placement/consumers-on-trees';
import { BadRequestError, ErrorCode } from '../placement/errors';
import type { ResourceProviderService } from '../placement/resource-provider';
import { normalizeUuidOrThrow } from '../placement/uuid';

/** Most hosts one drain plan takes. */
export const MAX_DRAIN_HOSTS = 100;

/** A consumer of a drained host, as the plan moves it. */
export interface DrainConsumer {
  /** Its id in the consumers table (the capacity index counts consumers by it). */
  readonly id: number;
  readonly uuid: string;
  readonly projectId: string;
  readonly userId: string;
  /** Null when it was written without a type: a reserved move keeps it untyped. */
  readonly consumerType: string | null;
  /** The drained host (root provider uuid) it runs on. */
  readonly host: string;
  /** Per-class totals of the allocations on the drained trees: what it asks of its destination. */
  readonly resources: Readonly<Record<string, number>>;
  /** The server group it is a member of. */
  readonly serverGroup?: string;
  /** True when a move of it is in progress (confirmMove / revertMove first). */
  readonly moving: boolean;
}

/**
 * The root provider uuids `hosts` names, normalised, duplicates dropped, in the order given.
 * @throws BadRequestError DRAIN_NO_HOSTS, DRAIN_TOO_MANY_HOSTS, INVALID_UUID,
 *   DRAIN_UNKNOWN_HOST, DRAIN_NOT_A_HOST.
 */
export async function drainHostsOrThrow(
  providers: Pick<ResourceProviderService, 'byUuids'>,
  hosts: readonly string[],
): Promise<string[]> {
  if (hosts.length === 0) {
    throw new BadRequestError('A drain plan needs at least one host.', ErrorCode.DRAIN_NO_HOSTS);
  }
  const uuids = [...new Set(hosts.map((h) => normalizeUuidOrThrow(h, 'host uuid')))];
  if (uuids.length > MAX_DRAIN_HOSTS) {
    throw new BadRequestError(
      `A drain plan takes at most ${MAX_DRAIN_HOSTS} hosts, got ${uuids.length}.`,
      ErrorCode.DRAIN_TOO_MANY_HOSTS,
    );
  }
  const found = await providers.byUuids(uuids);
  for (const [i, uuid] of uuids.entries()) {
    const rp = found[i];
    if (!rp) {
      throw new BadRequestError(`No resource provider ${uuid}.`, ErrorCode.DRAIN_UNKNOWN_HOST);
    }
    if (rp.rootProviderUuid !== rp.uuid) {
      throw new BadRequestError(
        `Resource provider ${uuid} is not a host (a root provider); drain its root instead.`,
        ErrorCode.DRAIN_NOT_A_HOST,
      );
    }
  }
  return uuids;
}

/**
 * Every consumer with allocations on a provider of the trees rooted at `hosts`, largest first:
 * by its dominant share (its largest amount of a class relative to the largest amount of that
 * class among these consumers), then by the sum of its shares, then by uuid. Placing the largest
 * first is first-fit decreasing: the ones hardest to place choose while the most room is left,
 * and the small ones fill the gaps after them.
 */
export async function drainConsumers(
  ds: Pick<DataSource, 'query'>,
  hosts: readonly string[],
): Promise<DrainConsumer[]> {
  const rows = await allocationsOnTrees(ds, hosts);
  const drained = new Set(hosts);
  const byUuid = new Map<string, TreeAllocationRow[]>();
  for (const r of rows) {
    byUuid.set(r.uuid, [...(byUuid.get(r.uuid) ?? []), r]);
  }
  const consumers = [...byUuid.values()].map((list) => consumerOf(list, drained));
  return largestFirst(consumers);
}

function consumerOf(
  rows: readonly TreeAllocationRow[],
  drained: ReadonlySet<string>,
): DrainConsumer {
  const first = rows[0]!;
  const resources: Record<string, number> = {};
  let host: string | undefined;
  for (const r of rows) {
    if (drained.has(r.rootUuid)) {
      host ??= r.rootUuid;
      resources[r.resourceClass] = (resources[r.resourceClass] ?? 0) + r.used;
    }
  }
  return {
    id: first.id,
    uuid: first.uuid,
    projectId: first.projectId,
    userId: first.userId,
    consumerType: first.consumerType,
    host: host!,
    resources,
    ...(first.serverGroup ? { serverGroup: first.serverGroup } : {}),
    moving: first.moving,
  };
}

/** `consumers` largest first (see {@link drainConsumers}). */
export function largestFirst(consumers: readonly DrainConsumer[]): DrainConsumer[] {
  const largest = new Map<string, number>();
  for (const c of consumers) {
    for (const [rc, amount] of Object.entries(c.resources)) {
      largest.set(rc, Math.max(largest.get(rc) ?? 0, amount));
    }
  }
  const size = (c: DrainConsumer) => {
    const shares = Object.entries(c.resources).map(([rc, n]) => n / (largest.get(rc) || 1));
    return { dominant: Math.max(0, ...shares), sum: shares.reduce((a, b) => a + b, 0) };
  };
  const sized = consumers.map((c) => ({ c, ...size(c) }));
  sized.sort(
    (a, b) =>
      b.dominant - a.dominant ||
      b.sum - a.sum ||
      (a.c.uuid < b.c.uuid ? -1 : a.c.uuid > b.c.uuid ? 1 : 0),
  );
  return sized.map((s) => s.c);
}
