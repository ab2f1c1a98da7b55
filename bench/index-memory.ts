// What the capacity index costs on its own: a fresh process (node --expose-gc) loads the whole
// index from a database the way `berth serve` does (src/placement/allocation-candidates/
// index-load.ts) and reports the load time, the heap the index holds after a full collection
// (minus what the process held before the load), bytes per provider, and the peak RSS of the load.
// The scaling table calls it for each seeded size; `node --expose-gc dist/bench/index-memory.js
// <database url>` runs it on any database.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createDataSource } from '../src/db/data-source';
import { loadCapacityIndex } from '../src/placement/allocation-candidates/index-load';

/** What one load measured. */
export interface IndexMemory {
  readonly providers: number;
  readonly loadMs: number;
  /** Heap held by the index after a full collection, MiB. */
  readonly heapMiB: number;
  readonly bytesPerProvider: number;
  /** Highest RSS of the loading process (VmHWM), MiB. */
  readonly peakRssMiB: number;
}

function peakRssMiB(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : 0;
}

async function measure(url: string): Promise<IndexMemory> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    throw new Error('index-memory: run node with --expose-gc');
  }
  const ds = createDataSource({ url, poolSize: 4 });
  await ds.initialize();
  try {
    gc();
    const before = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    const t = performance.now();
    const index = await loadCapacityIndex(ds);
    const loadMs = performance.now() - t;
    gc();
    const after = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    const providers = index.orderedSlots().length;
    return {
      providers,
      loadMs,
      heapMiB: (after - before) / 1048576,
      bytesPerProvider: Math.round((after - before) / Math.max(1, providers)),
      peakRssMiB: peakRssMiB(),
    };
  } finally {
    await ds.destroy();
  }
}

/** Loads the index of the database at `url` in a fresh process and returns what it measured. */
export function measureIndexMemory(url: string): Promise<IndexMemory> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', __filename, url], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) {
        resolve(JSON.parse(out) as IndexMemory);
      } else {
        reject(new Error(`index-memory exited with ${code}`));
      }
    });
  });
}

/** One line for the bench output. */
export function formatIndexMemory(m: IndexMemory): string {
  return `capacity index alone: ${m.providers} providers loaded in ${(m.loadMs / 1000).toFixed(1)} s, ${m.heapMiB.toFixed(1)} MiB after a full GC (${m.bytesPerProvider} bytes per provider), peak RSS of the load ${m.peakRssMiB} MiB`;
}

if (require.main === module) {
  measure(process.argv[2]!).then(
    (m) => {
      process.stdout.write(JSON.stringify(m));
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
