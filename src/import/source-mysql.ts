// Reads a legacy Nova `compute_nodes` table (and `pci_devices`) from MySQL or MariaDB, Nova's
// usual database, and persists generated uuids back to it (seed 001 steps 1-2).
import type { Connection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import type { LegacyPciDevice } from './legacy-pci';
import {
  type LegacyNode,
  type LegacySource,
  type LegacyTableOptions,
  pciTableOf,
  redactUrl,
  tableNameOrThrow,
} from './legacy-source';

const quote = (parts: readonly string[]): string => parts.map((p) => `\`${p}\``).join('.');

/**
 * Connects to a mysql:// or mariadb:// URL (database in the path) and checks the table exists.
 * @throws the driver's connection error, or Error when the table is missing.
 */
export async function openMysqlSource(
  url: string,
  opts: LegacyTableOptions = {},
): Promise<LegacySource> {
  const tableParts = tableNameOrThrow(opts.table ?? 'compute_nodes');
  const pciParts = pciTableOf(opts);
  const { default: mysql } = await import('mysql2/promise'); // only when importing from MySQL
  const conn = await mysql.createConnection({
    uri: url.replace(/^mariadb:/, 'mysql:'),
    decimalNumbers: true,
    supportBigNumbers: true,
  });
  try {
    const exists = async (parts: readonly string[]): Promise<boolean> => {
      const [rows] = await conn.query<RowDataPacket[]>(
        `SELECT COUNT(*) AS n FROM information_schema.tables
         WHERE table_schema = COALESCE(?, DATABASE()) AND table_name = ?`,
        [parts.length === 2 ? parts[0] : null, parts[parts.length - 1]],
      );
      return Number(rows[0]?.n) > 0;
    };
    const table = quote(tableParts);
    if (!(await exists(tableParts))) {
      throw new Error(`table ${table} not found in ${redactUrl(url)}`);
    }
    return mysqlSource(conn, url, table, (await exists(pciParts)) ? quote(pciParts) : null);
  } catch (err) {
    await conn.end();
    throw err;
  }
}

function mysqlSource(
  conn: Connection,
  url: string,
  table: string,
  pciTable: string | null,
): LegacySource {
  async function devicesOf(ids: readonly string[]): Promise<Map<string, LegacyPciDevice[]>> {
    const out = new Map<string, LegacyPciDevice[]>(ids.map((id) => [id, []]));
    if (!pciTable || ids.length === 0) {
      return out;
    }
    const [rows] = await conn.query<RowDataPacket[]>(
      `SELECT * FROM ${pciTable} WHERE compute_node_id IN (?)`,
      [ids],
    );
    for (const d of rows) {
      out.get(String(d.compute_node_id))?.push(d as LegacyPciDevice);
    }
    return out;
  }

  return {
    description: `${redactUrl(url)} ${table}`,
    async count() {
      const [rows] = await conn.query<RowDataPacket[]>(`SELECT COUNT(*) AS n FROM ${table}`);
      return Number(rows[0]?.n ?? 0);
    },
    async *nodes(batchSize: number): AsyncIterable<LegacyNode[]> {
      let after: string | null = null;
      for (;;) {
        // Keyset pagination on the primary key: stable while rows are written back.
        const [rows]: [RowDataPacket[], unknown] = await conn.query<RowDataPacket[]>(
          `SELECT * FROM ${table} WHERE (? IS NULL OR id > ?) ORDER BY id LIMIT ?`,
          [after, after, batchSize],
        );
        if (rows.length === 0) {
          return;
        }
        const ids: string[] = rows.map((r) => String(r.id));
        const devices = await devicesOf(ids);
        yield rows.map((row) => ({
          row: { ...row },
          pciDevices: pciTable ? devices.get(String(row.id)) : undefined,
        }));
        after = ids[ids.length - 1]!;
      }
    },
    async writeBackUuid(id: string, uuid: string): Promise<string> {
      const [res] = await conn.query<ResultSetHeader>(
        `UPDATE ${table} SET uuid = ? WHERE id = ? AND (uuid IS NULL OR uuid = '')`,
        [uuid, id],
      );
      if (res.affectedRows === 1) {
        return uuid;
      }
      const [rows] = await conn.query<RowDataPacket[]>(`SELECT uuid FROM ${table} WHERE id = ?`, [
        id,
      ]);
      return (rows[0]?.uuid as string | null) || uuid;
    },
    async close() {
      await conn.end();
    },
  };
}
