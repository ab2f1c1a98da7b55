// Number formatting and the colour scale shared by the pages: one place decides how a resource
// amount reads (MEMORY_MB in MiB/GiB/TiB, DISK_GB in GiB/TiB, other classes as plain counts).

const INTEGER = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
const ONE_DECIMAL = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

/** 12,345 */
export function int(n: number): string {
  return INTEGER.format(n);
}

/** 0.4567 -> "45.7 %" */
export function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)} %`;
}

/** A unit an amount is shown in: its name and how many of the class's units make one. */
interface Unit {
  readonly name: string;
  readonly size: number;
}

/** The units of a class, smallest first; [] for plain counts (VCPU, PCI devices, ...). */
function unitsOf(resourceClass: string): readonly Unit[] {
  if (resourceClass === 'MEMORY_MB') {
    return [
      { name: 'MiB', size: 1 },
      { name: 'GiB', size: 1024 },
      { name: 'TiB', size: 1024 ** 2 },
    ];
  }
  if (resourceClass === 'DISK_GB') {
    return [
      { name: 'GiB', size: 1 },
      { name: 'TiB', size: 1024 },
    ];
  }
  return [];
}

/** The largest unit of `resourceClass` that `n` has at least one of. */
export function unitFor(resourceClass: string, n: number): Unit | null {
  const units = unitsOf(resourceClass);
  let chosen: Unit | null = units[0] ?? null;
  for (const u of units) {
    if (Math.abs(n) >= u.size) {
      chosen = u;
    }
  }
  return chosen;
}

function inUnit(n: number, unit: Unit | null): string {
  if (!unit) {
    return int(n);
  }
  return unit.size === 1 ? int(n) : ONE_DECIMAL.format(n / unit.size);
}

/**
 * An amount of a resource class for people: MEMORY_MB 49152 -> "48 GiB", DISK_GB 3072 ->
 * "3 TiB", VCPU 64 -> "64".
 */
export function amount(resourceClass: string, n: number): string {
  const unit = unitFor(resourceClass, n);
  return unit ? `${inUnit(n, unit)} ${unit.name}` : int(n);
}

/**
 * "used / capacity", sharing the capacity's unit when the used amount reads well in it
 * (MEMORY_MB 4096 of 49152 -> "4 / 48 GiB"), else each in its own ("44 GiB / 2.8 TiB").
 */
export function usedOf(resourceClass: string, used: number, capacity: number): string {
  const unit = unitFor(resourceClass, Math.max(capacity, used));
  if (!unit) {
    return `${int(used)} / ${int(capacity)}`;
  }
  const own = unitFor(resourceClass, used);
  if (used !== 0 && own && own.size < unit.size) {
    return `${amount(resourceClass, used)} / ${amount(resourceClass, capacity)}`;
  }
  return `${inUnit(used, unit)} / ${inUnit(capacity, unit)} ${unit.name}`;
}

// Viridis (perceptually uniform, readable with every common colour-vision deficiency), sampled
// at 0, 1/8, ..., 1 and interpolated linearly between samples: a continuous scale, not buckets.
const VIRIDIS: readonly (readonly [number, number, number])[] = [
  [68, 1, 84],
  [71, 44, 122],
  [59, 81, 139],
  [44, 113, 142],
  [33, 144, 141],
  [39, 173, 129],
  [92, 200, 99],
  [170, 220, 50],
  [253, 231, 37],
];

/** The viridis colour of `ratio` (0..1, clamped) as rgb(). */
export function viridis(ratio: number): string {
  const x = Math.min(1, Math.max(0, Number.isFinite(ratio) ? ratio : 0)) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(x));
  const f = x - i;
  const [a, b] = [VIRIDIS[i]!, VIRIDIS[i + 1]!];
  const c = a.map((v, k) => Math.round(v + (b[k]! - v) * f));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

/** Background and readable text colour for a utilisation from 0 to 1. */
export function heat(ratio: number): { background: string; color: string } {
  // Viridis is dark below ~0.6 and light above: white text on the dark half, black on the light.
  return { background: viridis(ratio), color: ratio >= 0.6 ? '#000' : '#fff' };
}

/** The CSS gradient of the whole scale (the heatmap's legend). */
export function viridisGradient(): string {
  const stops = VIRIDIS.map(
    ([r, g, b], i) => `rgb(${r}, ${g}, ${b}) ${((i / (VIRIDIS.length - 1)) * 100).toFixed(1)}%`,
  );
  return `linear-gradient(to right, ${stops.join(', ')})`;
}
