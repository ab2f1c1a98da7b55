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
import { builder } from './builder';

/** GraphQL ImportAction: what happened to one row. */
export const ImportAction = builder.enumType('ImportAction', {
  values: Object.fromEntries(IMPORT_ACTIONS.map((a) => [a.toUpperCase(), { value: a }])) as Record<
    Uppercase<ImportActionValue>,
    { value: ImportActionValue }
  >,
});

/** GraphQL SkippedInventory: a class the node could offer but will not, and why. */
export const SkippedInventory = builder
  .objectRef<SkippedInventoryRecord>('SkippedInventory')
  .implement({
    fields: (t) => ({
      resourceClass: t.exposeString('resourceClass'),
      reason: t.exposeString('reason'),
    }),
  });

/** GraphQL ImportedComputeNode: the outcome of one row. */
export const ImportedComputeNode = builder.objectRef<NodeOutcome>('ImportedComputeNode').implement({
  fields: (t) => ({
    sourceId: t.exposeString('sourceId', { description: 'The row id.' }),
    name: t.exposeString('name', { nullable: true }),
    uuid: t.exposeID('uuid', {
      nullable: true,
      description: 'The provider uuid; generated ones must be saved to the source by the caller.',
    }),
    action: t.field({ type: ImportAction, resolve: (n) => n.action }),
    changes: t.exposeStringList('changes'),
    skippedInventories: t.field({ type: [SkippedInventory], resolve: (n) => n.skippedInventories }),
    notes: t.exposeStringList('notes'),
    reason: t.exposeString('reason', {
      nullable: true,
      description: 'Why the row was skipped or failed.',
    }),
  }),
});

const ImportCounts = builder
  .objectRef<Readonly<Record<ImportActionValue, number>>>('ImportCounts')
  .implement({
    fields: (t) => ({
      created: t.exposeInt('created'),
      updated: t.exposeInt('updated'),
      unchanged: t.exposeInt('unchanged'),
      skipped: t.exposeInt('skipped'),
      failed: t.exposeInt('failed'),
    }),
  });

/** GraphQL ImportSummary. */
export const ImportSummary = builder.objectRef<ImportSummaryRecord>('ImportSummary').implement({
  fields: (t) => ({
    dryRun: t.exposeBoolean('dryRun'),
    counts: t.field({ type: ImportCounts, resolve: (s) => s.counts }),
    nodes: t.field({ type: [ImportedComputeNode], resolve: (s) => s.nodes }),
  }),
});

const PciMaxUnitInput = builder.inputType('PciMaxUnitInput', {
  fields: (t) => ({
    resourceClass: t.string({ required: true }),
    maxUnit: t.int({ required: true }),
  }),
});

const ImportComputeNodesOptions = builder.inputType('ImportComputeNodesOptions', {
  description: 'Operator knowledge the legacy rows do not hold.',
  fields: (t) => ({
    sharedStorageHosts: t.stringList({
      required: false,
      description: 'host or hypervisor_hostname values whose disk is shared storage; * = all.',
    }),
    pciMaxUnit: t.field({ type: [PciMaxUnitInput], required: false }),
    reservedHostCpus: t.int({ required: false }),
    reservedHostMemoryMb: t.int({ required: false }),
    reservedHostDiskMb: t.int({ required: false }),
  }),
});

builder.mutationField('importComputeNodes', (t) =>
  t.field({
    type: ImportSummary,
    description:
      "Imports legacy Nova compute_nodes rows (JSON objects with Nova's column names; optional pci_devices array per row): one provider per row, one transaction per row, idempotent.",
    args: {
      rows: t.arg({
        type: 'JSON',
        required: true,
        description: "Nova compute_nodes rows as JSON objects (the legacy table's columns).",
      }),
      dryRun: t.arg.boolean({
        required: false,
        defaultValue: false,
        description: 'Report what would change without writing anything.',
      }),
      options: t.arg({
        type: ImportComputeNodesOptions,
        required: false,
        description: 'Allocation ratios, reserved amounts and PCI settings to apply.',
      }),
    },
    resolve: (_root, args, ctx) =>
      new ComputeNodeImporter(ctx.services).fromRows(args.rows, {
        dryRun: args.dryRun ?? false,
        sharedStorageHosts: args.options?.sharedStorageHosts ?? undefined,
        pciMaxUnit: Object.fromEntries(
          (args.options?.pciMaxUnit ?? []).map((p) => [p.resourceClass, p.maxUnit]),
        ),
        reservedHostCpus: args.options?.reservedHostCpus ?? undefined,
        reservedHostMemoryMb: args.options?.reservedHostMemoryMb ?? undefined,
        reservedHostDiskMb: args.options?.reservedHostDiskMb ?? undefined,
      }),
  }),
);
