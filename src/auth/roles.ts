// Roles and the one central authorisation policy (berth extension; Placement delegates roles to
// Keystone + oslo.policy). Every GraphQL Mutation field and REST policy action not listed here
// needs `admin`, so a newly added mutation is admin-only until someone classifies it.

/**
 * Token roles, weakest first. `member` reads its own project's usages, quota and allocations and
 * nothing else (Keystone's project member / reader under Placement's default policy); `reader`
 * reads everything; `scheduler` also places and claims; `service` is what Placement's default
 * policy gives the roles `admin` and `service`: everything the Placement API allows (one
 * credential for nova-compute and nova-scheduler); `admin` adds berth's own administration (quota
 * limits, legacy import, scheduler reload and per-request plugin overrides).
 */
export const ROLES = ['member', 'reader', 'scheduler', 'service', 'admin'] as const;
/** A token role. */
export type Role = (typeof ROLES)[number];

/** True when `v` names a role. */
export function isRole(v: string): v is Role {
  return (ROLES as readonly string[]).includes(v);
}

/** True when a caller with `have` may do what needs `need` (roles are ordered). */
export function roleAllows(have: Role, need: Role): boolean {
  return ROLES.indexOf(have) >= ROLES.indexOf(need);
}

/**
 * GraphQL Mutation fields open to a role below admin, keyed by field name. Queries need `reader`.
 * Anything absent needs `admin`.
 */
export const MUTATION_ROLES: Readonly<Record<string, Role>> = {
  // What the Placement API allows `service` (nova-compute's provider tree, reshapes).
  createResourceProvider: 'service',
  updateResourceProvider: 'service',
  deleteResourceProvider: 'service',
  setInventories: 'service',
  deleteInventory: 'service',
  setProviderTraits: 'service',
  setProviderAggregates: 'service',
  setAggregateMetadata: 'service',
  createTrait: 'service',
  deleteTrait: 'service',
  createResourceClass: 'service',
  deleteResourceClass: 'service',
  reshape: 'service',
  // What nova-compute reports about its builds (berth: BuildFailureWeigher's failed builds).
  reportBuildFailure: 'service',
  reportBuildSuccess: 'service',
  // Placing and claiming (nova-scheduler, conductor).
  setAllocations: 'scheduler',
  deleteAllocations: 'scheduler',
  schedule: 'scheduler',
  confirmMove: 'scheduler',
  revertMove: 'scheduler',
  createServerGroup: 'scheduler',
  deleteServerGroup: 'scheduler',
  addServerGroupMembers: 'scheduler',
  removeServerGroupMembers: 'scheduler',
  // Capacity planning: a drain plan's destinations claimed as moves (what Nova's conductor may do).
  reserveDrainPlan: 'service',
};

/**
 * Mutation fields whose consumers must belong to a project-scoped caller's project (checked by
 * the GraphQL layer against the arguments and the consumers' current projects).
 */
export const PROJECT_SCOPED_MUTATIONS: ReadonlySet<string> = new Set([
  'setAllocations',
  'deleteAllocations',
  'schedule',
  'confirmMove',
  'revertMove',
  'createServerGroup',
  'addServerGroupMembers',
  'removeServerGroupMembers',
]);

/**
 * Query fields that read one project's data: a project-scoped caller may read only its own
 * project's (src/auth/project-scope.ts readScopeViolation), and may not list every project.
 */
export const PROJECT_SCOPED_QUERIES: ReadonlySet<string> = new Set([
  'quota',
  'usages',
  'consumers',
  'consumer',
  'projects',
  'explainPlacement',
  'serverGroups',
]);

/**
 * Arguments (paths into a root field's coerced arguments) that override the operator's scheduler
 * configuration for one request: only `admin` may set them, on any root field listed.
 */
export const ADMIN_ONLY_ARGUMENTS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  schedule: [['input', 'filters']],
  explainPlacement: [['input', 'filters']],
  // A pipeline of the caller's own (plugin settings, plugin directories on the server) and the
  // audit trail's requests are the operator's: the running profiles are open to readers.
  simulate: [
    ['input', 'pipeline'],
    ['input', 'comparePipeline'],
    ['input', 'fromAudit'],
  ],
};

/** The first admin-only argument `field`'s coerced `args` set (as `a.b`), or null. */
export function adminOnlyArgument(field: string, args: Readonly<Record<string, unknown>>) {
  for (const path of ADMIN_ONLY_ARGUMENTS[field] ?? []) {
    let v: unknown = args;
    for (const k of path) {
      v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
    }
    if (v !== undefined && v !== null) {
      return path.join('.');
    }
  }
  return null;
}

/**
 * Query fields a `member` may run: its own project's quota, usages and consumers with their
 * allocations (the project is checked against the arguments: PROJECT_SCOPED_QUERIES), plus the
 * server's version, who it is (`viewer`) and introspection.
 */
export const MEMBER_QUERIES: ReadonlySet<string> = new Set([
  'viewer',
  'quota',
  'usages',
  'consumers',
  'consumer',
  'version',
  '__typename',
  '__schema',
  '__type',
]);

/** Queries only `admin` may run (the audit trail names every caller and target). */
export const ADMIN_QUERIES: ReadonlySet<string> = new Set(['auditEvents']);

/** The role a GraphQL root field needs. */
export function roleForOperation(
  operation: 'query' | 'mutation' | 'subscription',
  field: string,
): Role {
  if (operation === 'query') {
    if (ADMIN_QUERIES.has(field)) {
      return 'admin';
    }
    return MEMBER_QUERIES.has(field) ? 'member' : 'reader';
  }
  if (operation === 'mutation') {
    return MUTATION_ROLES[field] ?? 'admin';
  }
  return 'reader' satisfies Role; // subscriptions are live queries
}

/** REST policy actions (src/rest handlers' authorizeOrThrow names) writable below admin. */
const REST_SCHEDULER_ACTIONS: ReadonlySet<string> = new Set([
  'placement:allocations:update',
  'placement:allocations:manage',
  'placement:allocations:delete',
]);

/**
 * REST actions a `member` may take: its own project's usages and its own consumers' allocations
 * (the handlers check the project: src/rest/project-reads.ts).
 */
export const REST_MEMBER_ACTIONS: ReadonlySet<string> = new Set([
  'placement:usages',
  'placement:allocations:list',
]);

/**
 * The role a REST policy action needs, as Placement's default policy: a member's own usages and
 * allocations need `member`, other reads (`…:list`, `…:show`, usages, candidates) `reader`,
 * allocation writes `scheduler`, everything else (providers, inventories, traits, aggregates,
 * resource classes, reshape) `service` — the REST facade has nothing only berth's admin may do.
 */
export function roleForRestAction(action: string): Role {
  if (REST_SCHEDULER_ACTIONS.has(action)) {
    return 'scheduler';
  }
  if (REST_MEMBER_ACTIONS.has(action)) {
    return 'member';
  }
  if (/:(list|show|usages)$/.test(action)) {
    return 'reader';
  }
  return 'service';
}

/** A caller as a Keystone token describes it: its role names and the project it is scoped to. */
export interface KeystoneIdentity {
  readonly roles: readonly string[];
  /** The token's project (project-scoped token), or null (system- or domain-scoped, unscoped). */
  readonly projectId: string | null;
  /** The Keystone user id (audit trail). */
  readonly userId?: string | null;
}

/**
 * The berth role and project a Keystone token stands for, as Placement's default policy reads
 * it: `admin` (any scope) may do everything, `service` everything the Placement API allows, a
 * project-scoped `member` or `reader` may read its own project's usages, quota and allocations
 * and nothing else (berth role `member` scoped to the project); anything else, null (refused).
 */
export function roleOfKeystone(
  identity: KeystoneIdentity,
): { readonly role: Role; readonly project: string | null } | null {
  const roles = new Set(identity.roles.map((r) => r.toLowerCase()));
  if (roles.has('admin')) {
    return { role: 'admin', project: null };
  }
  if (roles.has('service')) {
    return { role: 'service', project: null };
  }
  if ((roles.has('member') || roles.has('reader')) && identity.projectId) {
    return { role: 'member', project: identity.projectId };
  }
  return null;
}
