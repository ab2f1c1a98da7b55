// Opens the database for CLI commands: DATABASE_URL, else the socket of a running embedded
// server (so `berth db reset` works while `npm start` runs), else PGlite directly.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import type { Config } from '../config/config';
import { templateFor } from '../db/embedded-early';
import { connectDatabase } from '../db/open';
import { createLogger } from '../observability/logger';

/** Where a running embedded server advertises its socket. */
export function embeddedInfoPath(dataDir: string): string {
  return path.resolve(dataDir, 'embedded.json');
}

/** Records the running embedded server's URL (removed again on shutdown). */
export function advertiseEmbedded(dataDir: string, url: string): () => void {
  const file = embeddedInfoPath(dataDir);
  writeFileSync(file, JSON.stringify({ url, pid: process.pid }));
  return () => rmSync(file, { force: true });
}

function runningEmbeddedUrl(dataDir: string): string | undefined {
  const file = embeddedInfoPath(dataDir);
  if (!existsSync(file)) {
    return undefined;
  }
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as { url: string; pid: number };
    process.kill(info.pid, 0);
    return info.url;
  } catch {
    return undefined;
  }
}

/** An initialised DataSource plus how to release it. */
export interface CliDatabase {
  readonly dataSource: DataSource;
  close(): Promise<void>;
}

/**
 * Connects as described above. A fresh data directory is filled from the migrated template, as
 * `berth serve` fills it (a copy instead of PGlite's initdb: seconds saved on a first command).
 */
export async function openDatabase(config: Config): Promise<CliDatabase> {
  const { dataSource, embedded } = await connectDatabase(
    config.databaseUrl ?? runningEmbeddedUrl(config.dataDir),
    config.dataDir,
    { poolSize: 2, maxConnections: 4 },
    templateFor(createLogger(config.logLevel, process.stderr)),
  );
  return {
    dataSource,
    async close() {
      await dataSource.destroy();
      await embedded?.stop();
    },
  };
}
