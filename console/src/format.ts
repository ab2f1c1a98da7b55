// Number formatting and the colour scale shared by the pages.

const INTEGER = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });

/** 12,345 */
export function int(n: number): string {
  return INTEGER.format(n);
}

/** 0.4567 -> "45.7 %" */
export function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)} %`;
}

// Viridis (perceptually uniform, readable with every common colour-vision deficiency).
const VIRIDIS = ['#440154', '#3b528b', '#21918c', '#5ec962', '#fde725'];

/** Background and text colour for a utilisation from 0 to 1. */
export function heat(ratio: number): { background: string; color: string } {
  const i = Math.min(VIRIDIS.length - 1, Math.max(0, Math.floor(ratio * VIRIDIS.length)));
  return { background: VIRIDIS[i]!, color: i >= 3 ? '#000' : '#fff' };
}
