// The central role policy: ordering, Mutation classification (admin-only by default) and REST
// action classification.
import {
  MUTATION_ROLES,
  roleAllows,
  roleForOperation,
  roleForRestAction,
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

  it('classifies only allocation writes, scheduling and server groups below admin', () => {
    expect(Object.keys(MUTATION_ROLES).sort()).toEqual([
      'addServerGroupMembers',
      'confirmMove',
      'createServerGroup',
      'deleteAllocations',
      'deleteServerGroup',
      'removeServerGroupMembers',
      'revertMove',
      'schedule',
      'setAllocations',
    ]);
  });

  it.each([
    { op: 'query', field: 'resourceProviders', want: 'reader' },
    { op: 'mutation', field: 'setAllocations', want: 'scheduler' },
    { op: 'mutation', field: 'createTrait', want: 'admin' },
    { op: 'mutation', field: 'someMutationAddedTomorrow', want: 'admin' },
    { op: 'subscription', field: 'anything', want: 'reader' },
  ] as const)('$op $field needs $want', ({ op, field, want }) => {
    expect(roleForOperation(op, field)).toBe(want);
  });

  it.each([
    { action: 'placement:resource_providers:list', want: 'reader' },
    { action: 'placement:resource_providers:inventories:show', want: 'reader' },
    { action: 'placement:usages', want: 'reader' },
    { action: 'placement:resource_providers:usages', want: 'reader' },
    { action: 'placement:allocation_candidates:list', want: 'reader' },
    { action: 'placement:allocations:update', want: 'scheduler' },
    { action: 'placement:allocations:manage', want: 'scheduler' },
    { action: 'placement:allocations:delete', want: 'scheduler' },
    { action: 'placement:traits:update', want: 'admin' },
    { action: 'placement:reshaper:reshape', want: 'admin' },
    { action: 'placement:new:thing', want: 'admin' },
  ])('REST $action needs $want', ({ action, want }) => {
    expect(roleForRestAction(action)).toBe(want);
  });
});
