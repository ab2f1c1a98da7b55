// The reader interface over a legacy Nova database (PostgreSQL or MySQL/MariaDB), and the SQL
// identifier checks both readers share (seed 001: rows are read, uuids generated and persisted).
import type { LegacyComputeNodeRow } from './legacy-compute-node';
import type { LegacyPciDevice } from './legacy-pci';

/** One compute node row with its PCI devices (undefined: the source has no pci_devices table). */
export interface LegacyNode {
  readonly row: LegacyComputeNodeRow;
  readonly pciDevices: readonly LegacyPciDevice[] | undefined;
}

/** A legacy `compute_nodes` table to import from. */
export interface LegacySource {
  /** Where the rows come from, without credentials (for the summary). */
  readonly description: string;
  /** Number of rows in the table (for progress). */
  count(): Promise<number>;
  /** Every row in id order, `batchSize` at a time, with PCI devices attached. */
  nodes(batchSize: number): AsyncIterable<LegacyNode[]>;
  /**
   * Persists a generated uuid for a row that has none (only if it still has none).
   * @returns the uuid the row holds afterwards (another writer's, if it got there first).
   */
  writeBackUuid(id: string, uuid: string): Promise<string>;
  close(): Promise<void>;
}

/** Where to read: the table, optionally schema- or database-qualified, and the PCI table. */
export interface LegacyTableOptions {
  /** `compute_nodes` or `<schema>.compute_nodes`. */
  readonly table?: string;
  /** Defaults to `pci_devices` next to the table. */
  readonly pciTable?: string;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_$]*$/;

/**
 * Splits `a.b` into checked identifiers.
 * @throws Error for anything but one or two plain identifiers.
 */
export function tableNameOrThrow(name: string): string[] {
  const parts = name.split('.');
  if (parts.length > 2 || !parts.every((p) => IDENT.test(p))) {
    throw new Error(`invalid table name '${name}': use name or schema.name (letters, digits, _)`);
  }
  return parts;
}

/** The PCI table next to `table` unless named explicitly. */
export function pciTableOf(opts: LegacyTableOptions): string[] {
  if (opts.pciTable) {
    return tableNameOrThrow(opts.pciTable);
  }
  const parts = tableNameOrThrow(opts.table ?? 'compute_nodes');
  return [...parts.slice(0, -1), 'pci_devices'];
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) {
      u.password = '***';
    }
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}
