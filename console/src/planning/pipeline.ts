// A candidate scheduler configuration to compare a trace under (an admin's `comparePipeline`):
// a base profile, filters and weighers in order, plugin settings as JSON, the host subset size,
// plugin directories on the server (plugins not yet deployed), as the form holds them, as the URL hash keeps them and as `simulate` is sent them.

/** The form's fields, as typed. */
export interface PipelineForm {
  /** The profile unset fields come from. */
  readonly profile: string;
  /** Comma-separated, in run order ('' = the base profile's). */
  readonly filters: string;
  readonly weighers: string;
  /** JSON text, as BERTH_SCHEDULER_CONFIG's "plugins" ('' = the base profile's). */
  readonly plugins: string;
  /** '' = the base profile's. */
  readonly hostSubsetSize: string;
  /** Comma-separated directories on the server with plugins not yet deployed ('' = none). */
  readonly pluginDirs: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const names = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The SimulationPipelineInput for `p` (empty fields left to the base profile). */
export function pipelineInput(p: PipelineForm): { [key: string]: Json } {
  const input: { [key: string]: Json } = { profile: p.profile || 'default' };
  if (p.filters.trim()) {
    input.filters = names(p.filters);
  }
  if (p.weighers.trim()) {
    input.weighers = names(p.weighers);
  }
  if (p.plugins.trim()) {
    input.plugins = p.plugins.trim();
  }
  if (p.pluginDirs.trim()) {
    input.pluginDirs = names(p.pluginDirs);
  }
  if (p.hostSubsetSize.trim()) {
    const n = Number(p.hostSubsetSize);
    input.hostSubsetSize = Number.isInteger(n) ? n : p.hostSubsetSize;
  }
  return input;
}

const KEYS = [
  ['profile', 'cp_profile'],
  ['filters', 'cp_filters'],
  ['weighers', 'cp_weighers'],
  ['plugins', 'cp_plugins'],
  ['hostSubsetSize', 'cp_subset'],
  ['pluginDirs', 'cp_dirs'],
] as const;

/** Writes `p` into the hash's parameters. */
export function pipelineToHash(p: PipelineForm, q: URLSearchParams): void {
  for (const [field, key] of KEYS) {
    q.set(key, p[field]);
  }
}

/** The pipeline the hash's parameters describe, or null (no `cp_profile`). */
export function pipelineFromHash(q: URLSearchParams): PipelineForm | null {
  if (!q.has('cp_profile')) {
    return null;
  }
  const get = (k: string) => q.get(k) ?? '';
  return {
    profile: get('cp_profile') || 'default',
    filters: get('cp_filters'),
    weighers: get('cp_weighers'),
    plugins: get('cp_plugins'),
    hostSubsetSize: get('cp_subset'),
    pluginDirs: get('cp_dirs'),
  };
}

/** A profile as schedulerProfiles lists it. */
interface Profile {
  readonly name: string;
  readonly filters: readonly string[];
  readonly weighers: readonly string[];
  readonly hostSubsetSize: number;
  readonly config: unknown;
}

/** A pipeline starting as `profile` is, to be edited. */
export function pipelineOf(profile: Profile | undefined, name: string): PipelineForm {
  return {
    profile: name,
    filters: profile?.filters.join(', ') ?? '',
    weighers: profile?.weighers.join(', ') ?? '',
    plugins: profile ? JSON.stringify(profile.config) : '',
    hostSubsetSize: profile ? String(profile.hostSubsetSize) : '',
    pluginDirs: '',
  };
}
