// GraphQL: importPlacement, the twin of `berth import placement` (admin only: mutations not
// listed in src/auth/roles.ts are admin-only). Reads a Placement 8.0 database and imports it;
// source rows berth's API would refuse refuse the import (berth.import.invalid_source, nothing
// written) unless skipInvalid, which leaves them out and lists them.

import { redactUrl } from '../src/import/legacy-source';
import {
  importPlacement,
  type KindCounts,
  type PlacementImportSummary as PlacementImportSummaryRecord,
  type SummaryKind,
} from '../src/import/placement/import-placement';
import type { OverCommit } from '../src/import/placement/plan';
import type { SourceFinding } from '../src/import/placement/source-findings';
import { BadRequestError, ErrorCode, isPlacementError } from '../src/placement/errors';
import { adminOnly } from './access';
import { builder } from './builder';

const PlacementImportKind = builder
  .objectRef<KindCounts & { kind: SummaryKind }>('PlacementImportKind')
  .implement({
    ...adminOnly,
    description: 'What an import did with one kind of object.',
    fields: (t) => ({
      kind: t.exposeString('kind', {
        description:
          'providers, inventories, consumers, allocations, resource classes, traits, aggregates, projects, users or consumer types.',
      }),
      created: t.exposeInt('created', { description: 'Created in berth.' }),
      updated: t.exposeInt('updated', { description: 'Overwritten in berth (replace).' }),
      unchanged: t.exposeInt('unchanged', { description: 'Already identical in berth.' }),
      overCommitted: t.exposeInt('overCommitted', {
        description: 'Inventories whose source allocations exceed capacity (imported as they are).',
      }),
      skipped: t.int({
        description:
          'Source rows left out (skipInvalid): breaking a rule of the API, or depending on a row that does.',
        resolve: (c) => c.skipped ?? 0,
      }),
    }),
  });

/** Most skipped rows importPlacement lists (skippedCount counts them all). */
const MAX_SKIPPED_LISTED = 1000;

const PlacementSkippedRow = builder.objectRef<SourceFinding>('PlacementSkippedRow').implement({
  ...adminOnly,
  description:
    "A source row the import left out (skipInvalid): it breaks a rule berth's API enforces, or depends on a row that does.",
  fields: (t) => ({
    kind: t.exposeString('kind', {
      description:
        'provider, inventory, provider trait, provider aggregate, consumer, allocation, resource class, trait, aggregate, project, user or consumer type.',
    }),
    row: t.exposeString('row', {
      description: 'Which source row: its id in the source, and its uuid or name.',
    }),
    rule: t.exposeString('rule', {
      description:
        'The rule: invalid-uuid, duplicate-uuid, invalid-name, unknown-name, duplicate-name, invalid-generation, invalid-inventory, invalid-amount, no-inventory, duplicate-row, missing-reference, invalid-parent, parent-cycle, root-mismatch, or depends-on-skipped (valid, but needs a row left out).',
    }),
    message: t.exposeString('message', {
      description: "What is wrong, in the API's words where the rule is the API's.",
    }),
  }),
});

const PlacementOverCommit = builder.objectRef<OverCommit>('PlacementOverCommit').implement({
  ...adminOnly,
  description: 'An inventory the source allocations over-commit, imported as Placement stored it.',
  fields: (t) => ({
    providerUuid: t.exposeID('providerUuid', { description: 'The provider.' }),
    providerName: t.exposeString('providerName', { description: "The provider's name." }),
    resourceClass: t.exposeString('resourceClass', { description: 'The resource class.' }),
    used: t.exposeInt('used', { description: 'Allocated in the source.' }),
    capacity: t.exposeInt('capacity', {
      description: '(total - reserved) * allocation_ratio; 0 without an inventory.',
    }),
  }),
});

const PlacementReplaced = builder
  .objectRef<PlacementImportSummaryRecord['replaced'][number]>('PlacementReplaced')
  .implement({
    ...adminOnly,
    description: 'A provider or consumer replace overwrote.',
    fields: (t) => ({
      kind: t.exposeString('kind', { description: 'provider or consumer.' }),
      uuid: t.exposeID('uuid', { description: 'Its uuid.' }),
      differences: t.exposeStringList('differences', { description: 'What differed.' }),
    }),
  });

const PlacementImportSummary = builder
  .objectRef<PlacementImportSummaryRecord>('PlacementImportSummary')
  .implement({
    ...adminOnly,
    description: 'The outcome of a Placement database import.',
    fields: (t) => ({
      dryRun: t.exposeBoolean('dryRun', { description: 'True when nothing was written.' }),
      changed: t.exposeBoolean('changed', {
        description: 'False when berth already held everything.',
      }),
      kinds: t.field({
        type: [PlacementImportKind],
        description: 'Counts per kind of object.',
        resolve: (s) =>
          (Object.keys(s.counts) as SummaryKind[]).map((kind) => ({ kind, ...s.counts[kind] })),
      }),
      overCommitted: t.field({
        type: [PlacementOverCommit],
        description: 'Over-committed inventories in the source.',
        resolve: (s) => [...s.overCommitted],
      }),
      replaced: t.field({
        type: [PlacementReplaced],
        description: 'What replace overwrote.',
        resolve: (s) => [...s.replaced],
      }),
      incompleteConsumers: t.exposeInt('incompleteConsumers', {
        description: 'Consumers made for allocations without a consumers row.',
      }),
      skipped: t.field({
        type: [PlacementSkippedRow],
        description: `Source rows left out (skipInvalid): those breaking a rule first, then the providers and consumers depending on them; the first ${MAX_SKIPPED_LISTED}.`,
        resolve: (s) => (s.skipped ?? []).slice(0, MAX_SKIPPED_LISTED),
      }),
      skippedCount: t.int({
        description: 'How many source rows were left out (all of them, listed or not).',
        resolve: (s) => (s.skipped ?? []).length,
      }),
      seconds: t.exposeFloat('seconds', { description: 'How long the import took.' }),
    }),
  });

const ImportPlacementInput = builder.inputType('ImportPlacementInput', {
  description: 'A Placement 8.0 database and how to import it.',
  fields: (t) => ({
    from: t.string({
      required: true,
      description: 'postgresql://… or mysql://… URL of the Placement database (read only).',
    }),
    dryRun: t.boolean({
      required: false,
      defaultValue: false,
      description: 'Report what would change without writing anything.',
    }),
    batch: t.int({ required: false, description: 'Providers (then consumers) per transaction.' }),
    replace: t.boolean({
      required: false,
      defaultValue: false,
      description: 'Overwrite berth providers and consumers whose content differs from the source.',
    }),
    skipInvalid: t.boolean({
      required: false,
      defaultValue: false,
      description:
        "Import what is valid: leave out, and list in skipped, the source rows berth's API would refuse and the providers and consumers that depend on them. False: any such row refuses the whole import (berth.import.invalid_source, nothing written).",
    }),
  }),
});

builder.mutationField('importPlacement', (t) =>
  t.field({
    type: PlacementImportSummary,
    description:
      "Imports a Placement 8.0 database (same uuids, names, generations, trees, classes, traits, aggregates, consumers and allocations), in batches of one transaction each; idempotent; refuses source rows berth's API would refuse unless skipInvalid, and conflicting berth data unless replace.",
    args: {
      input: t.arg({ type: ImportPlacementInput, required: true, description: 'What to import.' }),
    },
    resolve: async (_root, { input }, ctx) => {
      if (input.batch !== null && input.batch !== undefined && input.batch < 1) {
        throw new BadRequestError('batch must be at least 1', ErrorCode.INVALID_INPUT);
      }
      try {
        return await importPlacement(ctx.services, input.from, {
          dryRun: input.dryRun ?? false,
          replace: input.replace ?? false,
          skipInvalid: input.skipInvalid ?? false,
          batch: input.batch ?? undefined,
        });
      } catch (err) {
        if (isPlacementError(err)) {
          throw err;
        }
        throw new BadRequestError(
          `cannot import ${redactUrl(input.from)}: ${(err as Error).message}`,
          ErrorCode.INVALID_INPUT,
        );
      }
    },
  }),
);
