// Every mutation takes one `input` object. Mutations of the client contract that took flat
// arguments still accept them (deprecated); mixing both forms or leaving out a required field is a
// clear berth.invalid_input, and writes nothing.
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { firstError, gql } from '../support/graphql';

describe('mutation inputs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('runs a provider’s whole life through input objects only', async () => {
    const tag = randomUUID().slice(0, 8).toUpperCase();
    const cls = `CUSTOM_C${tag}`;
    const trait = `CUSTOM_T${tag}`;
    const agg = randomUUID();
    const consumer = randomUUID();
    const step = async (query: string, input: unknown) => {
      const r = await gql(t.app, query, { input });
      expect(r.errors).toBeUndefined();
      return r.data;
    };
    await step(
      'mutation($input: CustomNameInput) { createResourceClass(input: $input) { name } }',
      { name: cls },
    );
    await step('mutation($input: CustomNameInput) { createTrait(input: $input) { name } }', {
      name: trait,
    });
    const rp = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: cls, total: 10 }],
    });
    let gen = (
      await step(
        'mutation($input: SetProviderTraitsInput) { setProviderTraits(input: $input) { generation traits } }',
        { providerUuid: rp.uuid, traits: [trait], generation: rp.generation },
      )
    ).setProviderTraits.generation;
    gen = (
      await step(
        'mutation($input: SetProviderAggregatesInput) { setProviderAggregates(input: $input) { generation aggregates { uuid } } }',
        { providerUuid: rp.uuid, aggregates: [agg], generation: gen },
      )
    ).setProviderAggregates.generation;
    const meta = await step(
      'mutation($input: SetAggregateMetadataInput) { setAggregateMetadata(input: $input) { name metadata { key value } } }',
      { uuid: agg, name: 'rack-1', metadata: [{ key: 'ssd', value: 'true' }] },
    );
    expect(meta.setAggregateMetadata).toEqual({
      name: 'rack-1',
      metadata: [{ key: 'ssd', value: 'true' }],
    });
    const claim = await gql(
      t.app,
      'mutation($i: [ConsumerAllocationsInput!]!) { setAllocations(input: $i) { uuid } }',
      {
        i: [
          {
            consumerUuid: consumer,
            projectId: 'p',
            userId: 'u',
            allocations: [
              { providerUuid: rp.uuid, resources: [{ resourceClass: cls, amount: 2 }] },
            ],
          },
        ],
      },
    );
    expect(claim.errors).toBeUndefined();
    const released = await step(
      'mutation($input: DeleteAllocationsInput) { deleteAllocations(input: $input) }',
      { consumerUuid: consumer },
    );
    expect(released.deleteAllocations).toBe(consumer);
    const now = (
      await gql(t.app, 'query($u: ID!) { resourceProvider(uuid: $u) { generation } }', {
        u: rp.uuid,
      })
    ).data.resourceProvider.generation;
    await step(
      'mutation($input: DeleteInventoryInput) { deleteInventory(input: $input) { uuid } }',
      { providerUuid: rp.uuid, resourceClass: cls, generation: now },
    );
    const gone = await step(
      'mutation($input: DeleteResourceProviderInput) { deleteResourceProvider(input: $input) }',
      { uuid: rp.uuid },
    );
    expect(gone.deleteResourceProvider).toBe(rp.uuid);
    await step('mutation($input: CustomNameInput) { deleteTrait(input: $input) }', { name: trait });
    const deleted = await step(
      'mutation($input: CustomNameInput) { deleteResourceClass(input: $input) }',
      { name: cls },
    );
    expect(deleted.deleteResourceClass).toBe(cls);
  });

  it('imports compute nodes through input', async () => {
    const r = await gql(
      t.app,
      'mutation($input: ImportComputeNodesInput) { importComputeNodes(input: $input) { dryRun counts { created } } }',
      { input: { rows: [], dryRun: true } },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.importComputeNodes).toEqual({ dryRun: true, counts: { created: 0 } });
  });

  it('refuses both forms at once with berth.invalid_input and writes nothing', async () => {
    const r = await gql(
      t.app,
      'mutation { createTrait(name: "CUSTOM_MIXED", input: { name: "CUSTOM_MIXED" }) { name } }',
    );
    expect(firstError(r)).toEqual({
      code: 'berth.invalid_input',
      status: 400,
      message: 'createTrait: pass the arguments in input only (got input and name).',
    });
    const traits = await gql(t.app, '{ traits(filter: { nameIn: ["CUSTOM_MIXED"] }) { name } }');
    expect(traits.errors ?? traits.data.traits).toEqual([]);
  });

  it('refuses neither form with berth.invalid_input', async () => {
    const r = await gql(t.app, 'mutation { createTrait { name } }');
    expect(firstError(r)).toEqual({
      code: 'berth.invalid_input',
      status: 400,
      message: 'createTrait: input is required (with name).',
    });
  });

  it('refuses a flat form missing a required argument with berth.invalid_input and writes nothing', async () => {
    const rp = await buildResourceProvider(t.app.services, { traits: ['HW_CPU_X86_AVX2'] });
    const before = await t.app.services.providerTraits.get(rp.uuid);
    const r = await gql(
      t.app,
      `mutation { setProviderTraits(providerUuid: "${rp.uuid}", traits: []) { uuid } }`,
    );
    expect(firstError(r)).toEqual({
      code: 'berth.invalid_input',
      status: 400,
      message: 'setProviderTraits: input is required (with providerUuid, traits, generation).',
    });
    const after = await t.app.services.providerTraits.get(rp.uuid);
    expect(after.traits).toEqual(['HW_CPU_X86_AVX2']);
    expect(after.provider.generation).toBe(before.provider.generation);
  });
});
