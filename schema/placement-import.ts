// GraphQL: importPlacement, the twin of `berth import placement` (admin only: mutations not
// listed in src/auth/roles.ts are admin-only). Reads a Placement 8.0 database and imports it.

import { redactUrl } from '../src/import/legacy-source';
import {
  importPlacement,
  type KindCounts,
  type PlacementImportSummary as PlacementImportSummaryRecord,
  type SummaryKind,
} from '../src/import/placement/import-placement';
import { BadRequestError, ErrorCode, isPlacementError } from '../src/placement/errors';
import type { OverCommit } from '../src/placement/placement-import/plan';
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
  }),
});

builder.mutationField('importPlacement', (t) =>
  t.field({
    type: PlacementImportSummary,
    description:
      'Imports a Placement 8.0 database (same uuids, names, generations, trees, classes, traits, aggregates, consumers and allocations), in batches of one transaction each; idempotent; refuses conflicting berth data unless replace.',
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
