// Capacity-index rows for the scheduler's unit tests: provider `n` has the uuid ending in `n`.

/** The uuid of provider `n`. */
export const uuid = (n: number): string => `00000000-0000-0000-0000-${String(n).padStart(12, '0')}`;

/** An index provider row: a root, or a child of `parentId` (which is a root). */
export const provider = (id: number, parentId: number | null = null, name = `rp-${id}`) => ({
  id,
  uuid: uuid(id),
  name,
  generation: 1,
  parentId,
  rootId: parentId ?? id,
});

/** An index VCPU inventory row of provider `providerId` (ratio 1, nothing reserved). */
export const vcpuInventory = (providerId: number, total: number, used = 0) => ({
  providerId,
  resourceClass: 'VCPU',
  total,
  reserved: 0,
  minUnit: 1,
  maxUnit: total,
  stepSize: 1,
  allocationRatio: 1,
  used,
});
