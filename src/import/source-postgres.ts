// Reads a legacy Nova `compute_nodes` table (and `pci_devices`) from PostgreSQL, and persists
// generated uuids back to it (seed 001 steps 1-2: uuid generated on read, then saved).
import { Client } from 'pg';
import type { LegacyPciDevice } from './legacy-pci';
import {
  type LegacyNode,
  type LegacySource,
  type LegacyTableOptions,
  pciTableOf,
  redactUrl,
  tableNameOrThrow,
} from './legacy-source';

const quote = (parts: readonly string[]): string => parts.map((p) => `"${p}"`).join('.');

interface PciRow extends LegacyPciDevice {
  readonly compute_node_id: string | number;
}

/**
 * Connects to a postgres:// URL and checks the table exists.
 * @throws the driver's connection error, or Error when the table is missing.
 */
export async function openPostgresSource(
  url: string,
  opts: LegacyTableOptions = {},
): Promise<LegacySource> {
  const table = quote(tableNameOrThrow(opts.table ?? 'compute_nodes'));
  const pciTable = quote(pciTableOf(opts));
  const client = new Client({ connectionString: url, application_name: 'berth-import' });
  await client.connect();
  try {
    const found = await client.query<{ cn: boolean; pci: boolean }>(
      'SELECT to_regclass($1) IS NOT NULL AS cn, to_regclass($2) IS NOT NULL AS pci',
      [table, pciTable],
    );
    if (!found.rows[0]?.cn) {
      throw new Error(`table ${table} not found in ${redactUrl(url)}`);
    }
    return postgresSource(client, url, table, found.rows[0].pci ? pciTable : null);
  } catch (err) {
    await client.end();
    throw err;
  }
}

function postgresSource(
  client: Client,
  url: string,
  table: string,
  pciTable: string | null,
): LegacySource {
  async function devicesOf(ids: readonly string[]): Promise<Map<string, LegacyPciDevice[]>> {
    const out = new Map<string, LegacyPciDevice[]>(ids.map((id) => [id, []]));
    if (!pciTable || ids.length === 0) {
      return out;
    }
    const res = await client.query<PciRow>(
      `SELECT * FROM ${pciTable} WHERE compute_node_id::text = ANY($1::text[])`,
      [ids],
    );
    for (const d of res.rows) {
      out.get(String(d.compute_node_id))?.push(d);
    }
    return out;
  }

  return {
    description: `${redactUrl(url)} ${table}`,
    async count() {
      const res = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
      return res.rows[0]?.n ?? 0;
    },
    async *nodes(batchSize: number): AsyncIterable<LegacyNode[]> {
      let after: string | null = null;
      for (;;) {
        // Keyset pagination on the primary key: stable while rows are written back.
        const res: { rows: Record<string, unknown>[] } = await client.query(
          `SELECT * FROM ${table} WHERE ($1::bigint IS NULL OR id > $1::bigint) ORDER BY id LIMIT $2`,
          [after, batchSize],
        );
        if (res.rows.length === 0) {
          return;
        }
        const ids = res.rows.map((r) => String(r.id));
        const devices = await devicesOf(ids);
        yield res.rows.map((row) => ({
          row,
          pciDevices: pciTable ? devices.get(String(row.id)) : undefined,
        }));
        after = ids[ids.length - 1]!;
      }
    },
    async writeBackUuid(id: string, uuid: string): Promise<string> {
      const res = await client.query(
        `UPDATE ${table} SET uuid = $1 WHERE id = $2::bigint AND (uuid IS NULL OR uuid::text = '')`,
        [uuid, id],
      );
      if (res.rowCount === 1) {
        return uuid;
      }
      const now = await client.query<{ uuid: string | null }>(
        `SELECT uuid::text AS uuid FROM ${table} WHERE id = $1::bigint`,
        [id],
      );
      return now.rows[0]?.uuid || uuid;
    },
    async close() {
      await client.end();
    },
  };
}
