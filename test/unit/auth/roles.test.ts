// The central role policy: ordering, Mutation classification (admin-only by default) and REST
// action classification.
import {
  MUTATION_ROLES,
  roleAllows,
  roleForOperation,
  roleForRestAction,
  roleOfKeystone,
} from '../../../src/auth/roles';

describe('roles', () => {
  it.each([
    { have: 'reader', need: 'reader', want: true },
    { have: 'reader', need: 'scheduler', want: false },
    { have: 'scheduler', need: 'scheduler', want: true },
    { have: 'scheduler', need: 'admin', want: false },
    { have: 'admin', need: 'scheduler', want: true },
  ] as const)('$have may do what needs $need: $want', ({ have, need, want }) => {
    expect(roleAllows(have, need)).toBe(want);
  });

  it('leaves to admin only what the Placement API does not do', () => {
    expect(Object.keys(MUTATION_ROLES).sort()).toEqual([
      'addServerGroupMembers',
      'confirmMove',
      'createResourceClass',
      'createResourceProvider',
      'createServerGroup',
      'createTrait',
      'deleteAllocations',
      'deleteInventory',
      'deleteResourceClass',
      'deleteResourceProvider',
      'deleteServerGroup',
      'deleteTrait',
      'removeServerGroupMembers',
      'reportBuildFailure',
      'reportBuildSuccess',
      'reserveDrainPlan',
      'reshape',
      'revertMove',
      'schedule',
      'setAggregateMetadata',
      'setAllocations',
      'setInventories',
      'setProviderAggregates',
      'setProviderTraits',
      'updateResourceProvider',
    ]);
  });

  it.each([
    { op: 'query', field: 'resourceProviders', want: 'reader' },
    { op: 'mutation', field: 'setAllocations', want: 'scheduler' },
    { op: 'query', field: 'usages', want: 'member' },
    { op: 'mutation', field: 'createTrait', want: 'service' },
    { op: 'mutation', field: 'setQuotaLimits', want: 'admin' },
    { op: 'mutation', field: 'reloadScheduler', want: 'admin' },
    { op: 'mutation', field: 'someMutationAddedTomorrow', want: 'admin' },
    { op: 'subscription', field: 'anything', want: 'reader' },
  ] as const)('$op $field needs $want', ({ op, field, want }) => {
    expect(roleForOperation(op, field)).toBe(want);
  });

  it.each([
    { action: 'placement:resource_providers:list', want: 'reader' },
    { action: 'placement:resource_providers:inventories:show', want: 'reader' },
    { action: 'placement:usages', want: 'member' },
    { action: 'placement:allocations:list', want: 'member' },
    { action: 'placement:resource_providers:usages', want: 'reader' },
    { action: 'placement:allocation_candidates:list', want: 'reader' },
    { action: 'placement:allocations:update', want: 'scheduler' },
    { action: 'placement:allocations:manage', want: 'scheduler' },
    { action: 'placement:allocations:delete', want: 'scheduler' },
    { action: 'placement:traits:update', want: 'service' },
    { action: 'placement:reshaper:reshape', want: 'service' },
    { action: 'placement:new:thing', want: 'service' },
  ])('REST $action needs $want', ({ action, want }) => {
    expect(roleForRestAction(action)).toBe(want);
  });

  it.each([
    { roles: ['admin'], projectId: 'p', want: { role: 'admin', project: null } },
    { roles: ['Admin', 'member'], projectId: null, want: { role: 'admin', project: null } },
    { roles: ['service'], projectId: 'service', want: { role: 'service', project: null } },
    { roles: ['member', 'reader'], projectId: 'p', want: { role: 'member', project: 'p' } },
    { roles: ['reader'], projectId: 'p', want: { role: 'member', project: 'p' } },
    { roles: ['member'], projectId: null, want: null },
    { roles: ['heat_stack_owner'], projectId: 'p', want: null },
    { roles: [], projectId: 'p', want: null },
  ])('Keystone roles $roles in project $projectId are $want', ({ roles, projectId, want }) => {
    expect(roleOfKeystone({ roles, projectId })).toEqual(want);
  });
});
