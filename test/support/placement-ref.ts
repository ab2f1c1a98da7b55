// The real OpenStack Placement 8.0 for tests (test/placement-ref/start.sh: Debian's placement-api
// under uWSGI, noauth2, on a database of its own). When it is not installed, or its database
// server does not answer, startPlacement() says why (start.sh exits 77) and the test skips visibly.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './keystone';

const run = promisify(execFile);
const dir = path.resolve(__dirname, '../placement-ref');

/** Why the reference Placement cannot run here, or undefined when it can. */
export function placementMissing(): string | undefined {
  return existsSync('/usr/bin/placement-manage') && existsSync('/usr/bin/uwsgi_python3')
    ? undefined
    : 'Placement is not installed (DEBIAN_FRONTEND=noninteractive apt-get install -y placement-api ' +
        'python3-placement python3-psycopg2 python3-pymysql uwsgi-plugin-python3 uwsgi-core)';
}

/** A Placement database: the SQLAlchemy URL Placement uses and the plain one berth reads. */
export interface PlacementDb {
  readonly sqlalchemy: string;
  readonly plain: string;
}

/** Database `name` on the local PostgreSQL or MariaDB (root/postgres, no password). */
export function placementDb(kind: 'postgres' | 'mariadb', name: string): PlacementDb {
  return kind === 'postgres'
    ? {
        sqlalchemy: `postgresql+psycopg2://postgres@127.0.0.1/${name}`,
        plain: `postgres://postgres@127.0.0.1:5432/${name}`,
      }
    : {
        sqlalchemy: `mysql+pymysql://root@127.0.0.1/${name}`,
        plain: `mysql://root@127.0.0.1:3306/${name}`,
      };
}

/** A running Placement. */
export interface RunningPlacement {
  readonly url: string;
  readonly dir: string;
  stop(): Promise<void>;
}

/**
 * Runs start.sh for `db` (`--fresh`: dropped and re-created; `--sync-only`: schema only, nothing
 * served; none: the database as it is, schema synced), with `policyFile` as Placement's policy
 * file when given. Answers the skip reason on exit 77.
 */
export async function startPlacement(
  db: PlacementDb,
  mode: '--fresh' | '--sync-only' | '' = '--fresh',
  policyFile?: string,
): Promise<RunningPlacement | { skip: string }> {
  const port = await freePort();
  try {
    const { stdout } = await run(
      path.join(dir, 'start.sh'),
      [String(port), db.sqlalchemy, ...(mode ? [mode] : [])],
      {
        env: {
          ...process.env,
          PLACEMENT_REF_DIR: `/tmp/berth-placement-ref-${port}`,
          ...(policyFile ? { PLACEMENT_REF_POLICY: policyFile } : {}),
        },
      },
    );
    const env = Object.fromEntries(
      [...stdout.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]),
    );
    const stateDir = env.PLACEMENT_REF_DIR!;
    return {
      url: env.PLACEMENT_REF_URL!,
      dir: stateDir,
      stop: async () => {
        await run(path.join(dir, 'stop.sh'), [stateDir]);
      },
    };
  } catch (err) {
    const e = err as { code?: number; stderr?: string };
    if (e.code === 77) return { skip: (e.stderr ?? '').trim() };
    throw new Error(`test/placement-ref/start.sh failed: ${e.stderr ?? String(err)}`);
  }
}

/** Drops a Placement database made by startPlacement (after the server is stopped). */
export async function dropPlacementDb(kind: 'postgres' | 'mariadb', name: string): Promise<void> {
  if (kind === 'postgres') {
    const { Client } = await import('pg');
    const c = new Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
    await c.connect();
    try {
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await c.end();
    }
    return;
  }
  const mysql = await import('mysql2/promise');
  const c = await mysql.createConnection({ uri: 'mysql://root@127.0.0.1:3306/' });
  try {
    await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
  } finally {
    await c.end();
  }
}
