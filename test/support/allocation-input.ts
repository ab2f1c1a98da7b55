// Builds setAllocations input in GraphQL shape (ConsumerAllocationsInput) for API tests.
import { randomUUID } from 'node:crypto';

/** One consumer's new allocations on one provider; a new consumer unless told otherwise. */
export function allocationInput(
  providerUuid: string,
  resources: Record<string, number>,
  o: {
    consumerUuid?: string;
    consumerGeneration?: number | null;
    projectId?: string;
    userId?: string;
  } = {},
) {
  return {
    consumerUuid: o.consumerUuid ?? randomUUID(),
    projectId: o.projectId ?? 'proj',
    userId: o.userId ?? 'user',
    consumerType: 'INSTANCE',
    consumerGeneration: o.consumerGeneration ?? null,
    allocations: [
      {
        providerUuid,
        resources: Object.entries(resources).map(([resourceClass, amount]) => ({
          resourceClass,
          amount,
        })),
      },
    ],
  };
}
