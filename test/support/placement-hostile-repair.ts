// Repairs a generated source into one the API accepts whole, keeping the awkward values it does
// accept (control characters and emoji in names, uuids in capitals or without dashes, 32-bit
// edges, the largest ratio, over-commit): the valid half of the import fuzzer's sources.
import { normalizeUuidOrThrow } from '../../src/placement/uuid';
import {
  CLASSES,
  type HostileProvider,
  type HostileSource,
  MAX_RATIO,
  TRAITS,
  TYPES,
  uniqueBy,
} from './placement-hostile-model';

const canonical = (u: string): string | undefined => {
  try {
    return normalizeUuidOrThrow(u);
  } catch {
    return undefined;
  }
};

/** One spelling per uuid value, the first one used (malformed uuids dropped: `undefined`). */
function oneSpelling(): (u: string) => string | undefined {
  const first = new Map<string, string>();
  return (u) => {
    const c = canonical(u);
    if (c === undefined) {
      return undefined;
    }
    if (!first.has(c)) {
      first.set(c, u);
    }
    return first.get(c);
  };
}

/** `s` repaired into what the API accepts whole (awkward values it accepts are kept). */
export function repaired(s: HostileSource): HostileSource {
  const rp = oneSpelling();
  const providers: HostileProvider[] = [];
  const kept = new Map<number, number>();
  for (const [i, p] of s.providers.entries()) {
    const uuid = rp(p.uuid);
    if (uuid === undefined || providers.some((q) => q.uuid === uuid)) {
      continue;
    }
    const parent = p.parent !== null && p.parent < i ? kept.get(p.parent) : undefined;
    kept.set(i, providers.length);
    providers.push({
      uuid,
      name: p.name === null || p.name === '' ? `rp-${i}` : p.name,
      generation: Math.max(0, p.generation ?? 0),
      parent: parent ?? null,
      root: parent === undefined ? providers.length : providers[parent]!.root,
    });
  }
  const classes = s.classes.filter((c) => CLASSES.find((k) => k.id === c.id)?.valid);
  const classIds = new Set([0, 1, 2, ...classes.map((c) => c.id)]);
  const inventories = uniqueBy(
    s.inventories.flatMap((i) => {
      const provider = kept.get(i.provider);
      if (provider === undefined || !classIds.has(i.classId)) {
        return [];
      }
      const total = Math.max(1, i.total);
      const minUnit = Math.max(1, i.minUnit);
      const finite = Number.isFinite(i.ratio) && i.ratio > 0 && i.ratio <= MAX_RATIO;
      return [
        {
          ...i,
          provider,
          total,
          reserved: Math.min(Math.max(0, i.reserved), total),
          minUnit,
          maxUnit: Math.max(minUnit, i.maxUnit),
          stepSize: Math.max(1, i.stepSize),
          ratio: finite ? i.ratio : 1,
        },
      ];
    }),
    (i) => `${i.provider} ${i.classId}`,
  );
  const held = new Set(inventories.map((i) => `${i.provider} ${i.classId}`));
  const cs = oneSpelling();
  const consumers = s.consumers.flatMap((c) => {
    const uuid = cs(c.uuid);
    return uuid === undefined
      ? []
      : [
          {
            ...c,
            uuid,
            project: 1,
            user: 1,
            type: c.type === 1 ? 1 : null,
            generation: Math.max(0, c.generation),
          },
        ];
  });
  const aggs = oneSpelling();
  const aggregates = uniqueBy(
    s.aggregates.flatMap((a) => {
      const uuid = aggs(a.uuid);
      return uuid === undefined ? [] : [{ ...a, uuid }];
    }),
    (a) => a.uuid,
  );
  return {
    ...s,
    classes,
    traits: s.traits.filter((t) => TRAITS.find((k) => k.id === t.id)?.valid),
    types: s.types.filter((t) => TYPES.find((k) => k.id === t.id)?.valid),
    aggregates,
    projects: s.projects.map((p) => ({ ...p, name: p.name === '' ? `p${p.id}` : p.name })),
    users: s.users.map((u) => ({ ...u, name: u.name === '' ? `u${u.id}` : u.name })),
    providers,
    inventories,
    providerTraits: s.providerTraits.flatMap((l) => {
      const provider = kept.get(l.provider);
      return provider !== undefined && TRAITS.find((k) => k.id === l.trait)?.valid
        ? [{ ...l, provider }]
        : [];
    }),
    providerAggregates: s.providerAggregates.flatMap((l) => {
      const provider = kept.get(l.provider);
      return provider !== undefined && aggregates.some((a) => a.id === l.aggregate)
        ? [{ ...l, provider }]
        : [];
    }),
    consumers: uniqueBy(consumers, (c) => c.uuid),
    allocations: uniqueBy(
      s.allocations.flatMap((a) => {
        const provider = kept.get(a.provider);
        const consumer = cs(a.consumer);
        return provider !== undefined &&
          consumer !== undefined &&
          held.has(`${provider} ${a.classId}`)
          ? [{ ...a, provider, consumer, used: Math.max(1, a.used) }]
          : [];
      }),
      (a) => `${a.consumer} ${a.provider} ${a.classId}`,
    ),
  };
}
