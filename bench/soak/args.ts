// Command-line options of `npm run soak`.
import { FAULTS, type Fault } from './faults';

/** Parsed options. */
export interface SoakOptions {
  readonly mode: 'default' | 'short' | 'full';
  readonly faults: readonly Fault[];
  readonly claims: number;
  readonly clients: number;
  readonly replicas: number;
  readonly hosts: number;
  readonly maxHold: number;
  /** Hard bound on the claim phase, in seconds. */
  readonly maxSeconds: number;
  readonly pgPort: number;
  readonly redisPort: number;
  readonly report: string;
}

export const USAGE = `usage: npm run soak -- [--short | --full] [--fault redis-kill|redis-hang|pg-restart|sigterm|plugin ...]
  [--claims N] [--clients N] [--replicas N] [--hosts N] [--max-hold N] [--max-seconds S]
  [--pg-port 5433] [--redis-port 6380] [--report dist/soak-report.json]
  --short  ~1,000 claims with every fault (CI); --full  ≥10,000 claims with every fault`;

/**
 * Parses argv (without node and script).
 * @throws Error with the usage on an unknown flag or fault.
 */
export function parseArgsOrThrow(argv: readonly string[]): SoakOptions {
  const has = (f: string) => argv.includes(`--${f}`);
  const value = (f: string): string | undefined => {
    const i = argv.indexOf(`--${f}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const num = (f: string, d: number) => {
    const v = value(f);
    if (v === undefined) {
      return d;
    }
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) {
      throw new Error(`--${f} must be a positive number\n${USAGE}`);
    }
    return n;
  };
  const known = new Set([
    'short',
    'full',
    'fault',
    'claims',
    'clients',
    'replicas',
    'hosts',
    'max-hold',
    'max-seconds',
    'pg-port',
    'redis-port',
    'report',
    'help',
  ]);
  for (const a of argv) {
    if (a.startsWith('--') && !known.has(a.slice(2))) {
      throw new Error(`unknown option ${a}\n${USAGE}`);
    }
  }
  const mode = has('full') ? 'full' : has('short') ? 'short' : 'default';
  const chosen = argv
    .flatMap((a, i) => (a === '--fault' ? (argv[i + 1] ?? '').split(',') : []))
    .filter((f) => f.length > 0);
  for (const f of chosen) {
    if (!(FAULTS as readonly string[]).includes(f)) {
      throw new Error(`unknown fault ${f}\n${USAGE}`);
    }
  }
  const faults = mode === 'default' ? (chosen as Fault[]) : [...FAULTS];
  return {
    mode,
    faults,
    claims: num('claims', mode === 'short' ? 1000 : 10000),
    clients: num('clients', 64),
    replicas: num('replicas', 3),
    hosts: num('hosts', 200),
    maxHold: num('max-hold', 16),
    maxSeconds: num('max-seconds', mode === 'short' ? 60 : 600),
    pgPort: num('pg-port', 5433),
    redisPort: num('redis-port', 6380),
    report: value('report') ?? 'dist/soak-report.json',
  };
}
