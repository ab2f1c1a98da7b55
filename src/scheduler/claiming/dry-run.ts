// explainPlacement's proposals: one host per consumer as `schedule` would pick it without races,
// later consumers seeing the earlier proposals' consumption and the server group's hard policy.

import { fromView } from '../host-requests';
import type { RequestSpec } from '../plugin-api';
import type { RankedHost } from '../runtime/explanation';
import type { Selection } from '../schedule-types';
import { fitsWithPlanned } from './claim-order';
import { GroupPlan } from './group-plan';

/** Proposes a host for each consumer in order; `reason` says why when none is left. */
export function proposeSelections(
  consumerUuids: readonly string[],
  ranking: readonly RankedHost[],
  spec: RequestSpec,
  reason: string,
): Selection[] {
  const planned = new Map<string, number>();
  const group = new GroupPlan(spec.serverGroup);
  return consumerUuids.map((consumerUuid): Selection => {
    for (const ranked of ranking) {
      const ar = group.allows(ranked.host.uuid)
        ? ranked.host.allocationRequests.find((r) => fitsWithPlanned(ranked.host, r, planned))
        : undefined;
      if (ar) {
        group.place(ranked.host.uuid);
        for (const [rp, res] of Object.entries(ar.allocations)) {
          for (const [rc, n] of Object.entries(res)) {
            planned.set(`${rp}:${rc}`, (planned.get(`${rp}:${rc}`) ?? 0) + n);
          }
        }
        return {
          consumerUuid,
          hostUuid: ranked.host.uuid,
          allocations: fromView(ar.allocations),
          reason: null,
        };
      }
    }
    return { consumerUuid, hostUuid: null, allocations: [], reason };
  });
}
