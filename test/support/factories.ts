// Factories: build providers with inventories through the domain services (never raw SQL).
import { randomUUID } from 'node:crypto';
import type { Services } from '../../src/app/services';
import type { InventoryInput } from '../../src/placement/inventory-rules';

let seq = 0;

/** Creates a provider (optionally under `parentUuid`) with the given inventories. */
export async function buildResourceProvider(
  services: Services,
  o: {
    name?: string;
    uuid?: string;
    parentUuid?: string;
    inventories?: InventoryInput[];
    traits?: string[];
    aggregates?: string[];
  } = {},
) {
  seq += 1;
  let rp = await services.providers.create({
    name: o.name ?? `rp-${process.pid}-${seq}`,
    uuid: o.uuid ?? randomUUID(),
    parentUuid: o.parentUuid,
  });
  if (o.inventories) {
    rp = (await services.inventories.setAll(rp.uuid, rp.generation, o.inventories)).provider;
  }
  if (o.traits) {
    rp = (await services.providerTraits.set(rp.uuid, rp.generation, o.traits)).provider;
  }
  if (o.aggregates) {
    rp = (await services.aggregates.setForProvider(rp.uuid, rp.generation, o.aggregates)).provider;
  }
  return rp;
}

/** A new consumer's allocation input. */
export function claim(
  providerUuid: string,
  resources: Record<string, number>,
  consumerUuid = randomUUID(),
) {
  return {
    consumerUuid,
    projectId: 'proj',
    userId: 'user',
    consumerType: 'INSTANCE',
    consumerGeneration: null,
    allocations: [{ providerUuid, resources }],
  };
}

/** Names aggregate `uuid` and replaces its metadata (Nova host-aggregate), as setAggregateMetadata does. */
export function nameAggregate(
  services: Services,
  uuid: string,
  name: string,
  metadata: Readonly<Record<string, string>> = {},
) {
  return services.aggregates.setMetadata(
    uuid,
    name,
    Object.entries(metadata).map(([key, value]) => ({ key, value })),
  );
}
