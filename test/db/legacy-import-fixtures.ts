// Legacy Nova databases for the importer tests: a scratch PostgreSQL schema (in the test
// database) or a scratch MariaDB database, each holding Nova-shaped compute_nodes/pci_devices.
import { randomUUID } from 'node:crypto';
import mysql from 'mysql2/promise';
import { Client } from 'pg';
import { testDatabaseUrl } from '../support/db';
import { MARIADB_URL } from '../support/mariadb-probe';

/** A scratch legacy database. */
export interface LegacyDb {
  readonly kind: 'postgres' | 'mariadb';
  /** The --from URL. */
  readonly url: string;
  /** Runs SQL written with `?` placeholders; returns the rows. */
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Creates a fresh compute_nodes + pci_devices pair; returns their (qualified) names. */
  createTables(): Promise<{ table: string; pciTable: string }>;
  close(): Promise<void>;
}

/** Where the MariaDB tests connect (CI machine default: root without password). */
export { MARIADB_URL };

/** Why MariaDB cannot be used (probed once by test/setup/global-setup.ts), or undefined. */
export function mariadbProblem(): string | undefined {
  return process.env.BERTH_TEST_MARIADB_PROBLEM || undefined;
}

/** `it` for a test against legacy database `kind`: skipped, visibly, when MariaDB is unreachable. */
export function itFor(kind: string): typeof it {
  return kind === 'mariadb' && mariadbProblem() ? it.skip : it;
}

let seq = 0;

// nova/db/main/models.py ComputeNode and PciDevice, trimmed of columns the importer never reads
// but keeping their types and nullability.
const computeNodesDdl = (t: string, pg: boolean) => `
  CREATE TABLE ${t} (
    id ${pg ? 'SERIAL' : 'INT NOT NULL AUTO_INCREMENT'} PRIMARY KEY,
    created_at ${pg ? 'TIMESTAMP' : 'DATETIME'} NULL,
    service_id INT NULL,
    host VARCHAR(255) NULL,
    uuid VARCHAR(36) NULL,
    vcpus INT NOT NULL,
    memory_mb INT NOT NULL,
    local_gb INT NOT NULL,
    vcpus_used INT NOT NULL,
    memory_mb_used INT NOT NULL,
    local_gb_used INT NOT NULL,
    hypervisor_type TEXT NOT NULL,
    hypervisor_version INT NOT NULL,
    hypervisor_hostname VARCHAR(255) NULL,
    cpu_info TEXT NOT NULL,
    disk_available_least INT NULL,
    pci_stats TEXT NULL,
    numa_topology TEXT NULL,
    ram_allocation_ratio FLOAT NULL,
    cpu_allocation_ratio FLOAT NULL,
    disk_allocation_ratio FLOAT NULL,
    deleted INT NULL DEFAULT 0
  )`;

const pciDevicesDdl = (t: string, pg: boolean) => `
  CREATE TABLE ${t} (
    id ${pg ? 'SERIAL' : 'INT NOT NULL AUTO_INCREMENT'} PRIMARY KEY,
    deleted INT NOT NULL DEFAULT 0,
    compute_node_id INT NOT NULL,
    address VARCHAR(12) NOT NULL,
    vendor_id VARCHAR(4) NOT NULL,
    product_id VARCHAR(4) NOT NULL,
    dev_type VARCHAR(8) NOT NULL,
    label VARCHAR(255) NOT NULL,
    status VARCHAR(36) NOT NULL,
    instance_uuid VARCHAR(36) NULL,
    numa_node INT NULL
  )`;

/** A scratch schema in the test PostgreSQL (embedded or real): always reachable. */
export async function openPostgresLegacy(): Promise<LegacyDb> {
  const url = testDatabaseUrl();
  const schema = `legacy_${process.pid}_${randomUUID().slice(0, 8)}`;
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  const query = async (sql: string, params: unknown[] = []) => {
    let n = 0;
    const res = await client.query(
      sql.replace(/\?/g, () => `$${++n}`),
      params,
    );
    return res.rows as Record<string, unknown>[];
  };
  return {
    kind: 'postgres',
    url,
    query,
    async createTables() {
      seq += 1;
      const table = `${schema}.compute_nodes_${seq}`;
      const pciTable = `${schema}.pci_devices_${seq}`;
      await client.query(computeNodesDdl(table, true));
      await client.query(pciDevicesDdl(pciTable, true));
      return { table, pciTable };
    },
    async close() {
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    },
  };
}

/** A scratch MariaDB database, or the reason it cannot be had. */
export async function openMariadbLegacy(): Promise<LegacyDb | string> {
  let admin: mysql.Connection;
  try {
    admin = await mysql.createConnection({ uri: MARIADB_URL, connectTimeout: 3000 });
  } catch (err) {
    return `MariaDB not reachable at ${MARIADB_URL} (${(err as Error).message}); set LEGACY_MYSQL_URL`;
  }
  const database = `berth_legacy_${process.pid}_${randomUUID().slice(0, 8)}`;
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.query(`USE ${database}`);
  const url = new URL(MARIADB_URL);
  url.pathname = `/${database}`;
  const query = async (sql: string, params: unknown[] = []) => {
    const [rows] = await admin.query(sql, params);
    return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
  };
  return {
    kind: 'mariadb',
    url: url.toString(),
    query,
    async createTables() {
      seq += 1;
      const table = `compute_nodes_${seq}`;
      const pciTable = `pci_devices_${seq}`;
      await admin.query(computeNodesDdl(table, false));
      await admin.query(pciDevicesDdl(pciTable, false));
      return { table, pciTable };
    },
    async close() {
      await admin.query(`DROP DATABASE ${database}`);
      await admin.end();
    },
  };
}

/** Nova's NUMATopology for 2 cells x 4 cores x 8 threads, 32 GiB each (the seed's example). */
export const NUMA_2X4X8 = JSON.stringify({
  'nova_object.name': 'NUMATopology',
  'nova_object.data': {
    cells: [0, 1].map((id) => ({
      'nova_object.name': 'NUMACell',
      'nova_object.data': {
        id,
        cpuset: [0, 1, 2, 3, 4, 5, 6, 7].map((c) => c + id * 8),
        memory: 32768,
        siblings: [0, 1, 2, 3].map((c) => [c + id * 8, c + id * 8 + 4]),
      },
    })),
  },
});

/** Inserts one compute_nodes row (Nova NOT NULL columns defaulted); returns its id. */
export async function insertNode(
  db: LegacyDb,
  table: string,
  row: Record<string, unknown>,
): Promise<number> {
  const full: Record<string, unknown> = {
    vcpus_used: 0,
    memory_mb_used: 0,
    local_gb_used: 0,
    hypervisor_type: 'QEMU',
    hypervisor_version: 8002000,
    cpu_info: '{}',
    deleted: 0,
    ...row,
  };
  const cols = Object.keys(full);
  await db.query(
    `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
    cols.map((c) => full[c]),
  );
  const [last] = await db.query(`SELECT max(id) AS id FROM ${table}`);
  return Number(last!.id);
}

/** Inserts `n` pci_devices rows of one type for a node. */
export async function insertPciDevices(
  db: LegacyDb,
  pciTable: string,
  nodeId: number,
  devType: string,
  n: number,
  status = 'available',
): Promise<void> {
  if (n === 0) {
    return;
  }
  const rows = Array.from({ length: n }, (_, i) => [
    nodeId,
    `0000:81:${(i >> 3).toString(16).padStart(2, '0')}.${i & 7}`,
    devType,
    status,
  ]);
  await db.query(
    `INSERT INTO ${pciTable} (compute_node_id, address, vendor_id, product_id, dev_type, label, status)
     VALUES ${rows.map(() => "(?, ?, '8086', '154c', ?, 'label_8086_154c', ?)").join(', ')}`,
    rows.flat(),
  );
}
