// GraphQL: importComputeNodes, the JSON-payload twin of `berth import compute-nodes` (seed 001,
// legacy Nova compute_nodes rows -> providers + inventories). Thin: the importer does the work.
import {
  ComputeNodeImporter,
  IMPORT_ACTIONS,
  type ImportAction as ImportActionValue,
  type ImportSummary as ImportSummaryRecord,
  type NodeOutcome,
} from '../src/import/import-service';
import type { SkippedInventory as SkippedInventoryRecord } from '../src/import/legacy-compute-node';
import { adminOnly } from './access';
import { builder } from './builder';
import { inputOrFlat, USE_INPUT } from './mutation-input';

/** GraphQL ImportAction: what happened to one row. */
const ACTION_TEXT: Record<ImportActionValue, string> = {
  created: 'A new provider was created for the node.',
  updated: 'The existing provider was changed to match the node.',
  unchanged: 'The provider already matched the node.',
  skipped: 'The node was not imported (see notes).',
  failed: 'The node could not be imported (see notes).',
};

export const ImportAction = builder.enumType('ImportAction', {
  description: 'What an import did with one compute node.',
  values: Object.fromEntries(
    IMPORT_ACTIONS.map((a) => [a.toUpperCase(), { value: a, description: ACTION_TEXT[a] }]),
  ) as Record<Uppercase<ImportActionValue>, { value: ImportActionValue; description: string }>,
});

/** GraphQL SkippedInventory: a class the node could offer but will not, and why. */
export const SkippedInventory = builder
  .objectRef<SkippedInventoryRecord>('SkippedInventory')
  .implement({
    ...adminOnly,
    description: 'A resource class an import did not write, and why.',
    fields: (t) => ({
      resourceClass: t.exposeString('resourceClass', { description: 'The class not written.' }),
      reason: t.exposeString('reason', { description: 'Why.' }),
    }),
  });

/** GraphQL ImportedComputeNode: the outcome of one row. */
export const ImportedComputeNode = builder.objectRef<NodeOutcome>('ImportedComputeNode').implement({
  ...adminOnly,
  description: 'What an import did with one compute node.',
  fields: (t) => ({
    sourceId: t.exposeString('sourceId', { description: 'The row id.' }),
    name: t.exposeString('name', { description: "The compute node's host name.", nullable: true }),
    uuid: t.exposeID('uuid', {
      nullable: true,
      description: 'The provider uuid; generated ones must be saved to the source by the caller.',
    }),
    action: t.field({
      description: 'What the import did with it.',
      type: ImportAction,
      resolve: (n) => n.action,
    }),
    changes: t.exposeStringList('changes', { description: 'What changed, one line each.' }),
    skippedInventories: t.field({
      description: 'Classes not written, and why.',
      type: [SkippedInventory],
      resolve: (n) => n.skippedInventories,
    }),
    notes: t.exposeStringList('notes', { description: 'Anything else worth knowing.' }),
    reason: t.exposeString('reason', {
      nullable: true,
      description: 'Why the row was skipped or failed.',
    }),
  }),
});

const ImportCounts = builder
  .objectRef<Readonly<Record<ImportActionValue, number>>>('ImportCounts')
  .implement({
    ...adminOnly,
    description: 'Nodes by outcome.',
    fields: (t) => ({
      created: t.exposeInt('created', { description: 'New providers.' }),
      updated: t.exposeInt('updated', { description: 'Providers changed.' }),
      unchanged: t.exposeInt('unchanged', { description: 'Providers already as imported.' }),
      skipped: t.exposeInt('skipped', { description: 'Nodes not imported.' }),
      failed: t.exposeInt('failed', { description: 'Nodes that failed.' }),
    }),
  });

/** GraphQL ImportSummary. */
export const ImportSummary = builder.objectRef<ImportSummaryRecord>('ImportSummary').implement({
  ...adminOnly,
  description: 'The outcome of a compute-node import.',
  fields: (t) => ({
    dryRun: t.exposeBoolean('dryRun', { description: 'True when nothing was written.' }),
    counts: t.field({
      description: 'Nodes by outcome.',
      type: ImportCounts,
      resolve: (s) => s.counts,
    }),
    nodes: t.field({
      description: "Each node's outcome.",
      type: [ImportedComputeNode],
      resolve: (s) => s.nodes,
    }),
  }),
});

const PciMaxUnitInput = builder.inputType('PciMaxUnitInput', {
  description: 'The largest single allocation of a PCI resource class on imported nodes.',
  fields: (t) => ({
    resourceClass: t.string({ description: 'The PCI resource class.', required: true }),
    maxUnit: t.int({ description: 'Its largest single allocation.', required: true }),
  }),
});

const ImportComputeNodesOptions = builder.inputType('ImportComputeNodesOptions', {
  description: 'Operator knowledge the legacy rows do not hold.',
  fields: (t) => ({
    sharedStorageHosts: t.stringList({
      required: false,
      description: 'host or hypervisor_hostname values whose disk is shared storage; * = all.',
    }),
    pciMaxUnit: t.field({
      description: 'Largest single allocation per PCI resource class.',
      type: [PciMaxUnitInput],
      required: false,
    }),
    reservedHostCpus: t.int({
      description: 'VCPU reserved on every node (Nova reserved_host_cpus).',
      required: false,
    }),
    reservedHostMemoryMb: t.int({
      description: 'MEMORY_MB reserved on every node (Nova reserved_host_memory_mb).',
      required: false,
    }),
    reservedHostDiskMb: t.int({
      description: 'Disk reserved on every node, in MB (Nova reserved_host_disk_mb).',
      required: false,
    }),
  }),
});

const ImportComputeNodesInput = builder.inputType('ImportComputeNodesInput', {
  description: 'Legacy compute_nodes rows and how to import them.',
  fields: (t) => ({
    rows: t.field({
      type: 'JSON',
      required: true,
      description: "Nova compute_nodes rows as JSON objects (the legacy table's columns).",
    }),
    dryRun: t.boolean({
      required: false,
      defaultValue: false,
      description: 'Report what would change without writing anything.',
    }),
    options: t.field({
      type: ImportComputeNodesOptions,
      required: false,
      description: 'Allocation ratios, reserved amounts and PCI settings to apply.',
    }),
  }),
});

builder.mutationField('importComputeNodes', (t) =>
  t.field({
    type: ImportSummary,
    description:
      "Imports legacy Nova compute_nodes rows (JSON objects with Nova's column names; optional pci_devices array per row): one provider per row, one transaction per row, idempotent.",
    args: {
      input: t.arg({
        type: ImportComputeNodesInput,
        required: false,
        description: 'The rows, and how to import them.',
      }),
      rows: t.arg({
        type: 'JSON',
        required: false,
        description: "Nova compute_nodes rows as JSON objects (the legacy table's columns).",
        deprecationReason: USE_INPUT,
      }),
      dryRun: t.arg.boolean({
        required: false,
        description: 'Report what would change without writing anything.',
        deprecationReason: USE_INPUT,
      }),
      options: t.arg({
        type: ImportComputeNodesOptions,
        required: false,
        description: 'Allocation ratios, reserved amounts and PCI settings to apply.',
        deprecationReason: USE_INPUT,
      }),
    },
    resolve: (_root, args, ctx) => {
      const input = inputOrFlat<typeof ImportComputeNodesInput.$inferInput>(
        'importComputeNodes',
        args,
        ['rows', 'dryRun', 'options'],
        ['rows'],
      );
      return new ComputeNodeImporter(ctx.services).fromRows(input.rows, {
        dryRun: input.dryRun ?? false,
        sharedStorageHosts: input.options?.sharedStorageHosts ?? undefined,
        pciMaxUnit: Object.fromEntries(
          (input.options?.pciMaxUnit ?? []).map((p) => [p.resourceClass, p.maxUnit]),
        ),
        reservedHostCpus: input.options?.reservedHostCpus ?? undefined,
        reservedHostMemoryMb: input.options?.reservedHostMemoryMb ?? undefined,
        reservedHostDiskMb: input.options?.reservedHostDiskMb ?? undefined,
      });
    },
  }),
);
