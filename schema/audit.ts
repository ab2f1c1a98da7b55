// GraphQL: the audit trail (berth extension). `auditEvents` lists events newest first (admin
// only: src/auth/roles.ts ADMIN_QUERIES). Every mutation is audited by schema/audit-plugin.ts.
import {
  type AuditEventRecord,
  listAuditEvents,
  parseSinceOrThrow,
} from '../src/placement/audit-log';
import { adminOnly } from './access';
import { builder } from './builder';
import { cursorValueOrThrow, idConnectionOf, pageSizeOrThrow } from './pagination';

const KIND = 'AuditEvent';

const AuditActor = builder.objectRef<AuditEventRecord>('AuditActor').implement({
  ...adminOnly,
  description: 'Who made a write. Never a secret: ids, names and roles only.',
  fields: (t) => ({
    kind: t.exposeString('actorKind', {
      description:
        'token, keystone, noauth (Placement noauth2), anonymous (auth off), cli or system.',
    }),
    id: t.exposeString('actorId', { nullable: true, description: 'The token id.' }),
    name: t.exposeString('actorName', {
      nullable: true,
      description: 'The token name (berth tokens) or cli.',
    }),
    userId: t.exposeString('userId', { nullable: true, description: 'Keystone or noauth2 user.' }),
    projectId: t.exposeString('projectId', {
      nullable: true,
      description: "The caller's project scope.",
    }),
    role: t.exposeString('role', { nullable: true, description: "The caller's role." }),
  }),
});

const AuditEvent = builder.objectRef<AuditEventRecord>('AuditEvent').implement({
  ...adminOnly,
  description: 'One committed write.',
  fields: (t) => ({
    id: t.id({ resolve: (e) => String(e.id), description: 'Increasing with commit order.' }),
    at: t.string({
      resolve: (e) => e.createdAt.toISOString(),
      description: 'When the write transaction started (database time, ISO 8601).',
    }),
    requestId: t.exposeString('requestId', {
      nullable: true,
      description: 'The request id the logs carry (x-request-id, x-openstack-request-id).',
    }),
    actor: t.field({ type: AuditActor, resolve: (e) => e, description: 'Who wrote.' }),
    operation: t.exposeString('operation', {
      description: "e.g. 'mutation setInventories', 'PUT /allocations/{consumer_uuid}'.",
    }),
    consumers: t.exposeStringList('consumers', { description: 'Consumers written.' }),
    providers: t.exposeStringList('providers', { description: 'Providers written.' }),
    projects: t.exposeStringList('projects', { description: 'Projects touched.' }),
    details: t.field({
      type: 'JSON',
      nullable: true,
      resolve: (e) => e.details,
      description:
        'What an admin write changed, as a JSON object (null for claims and allocation writes, whose targets say it): token {id, name, role, project} (never the secret), quota {project, user, limits: {CLASS: {from, to}}} (null = no limit), inventories {provider, set: {CLASS: {total, reserved, allocation_ratio}}, removed}, resource_class / trait names, import counts per kind.',
    }),
  }),
});

const AuditEventConnection = builder.connectionObject(
  {
    type: AuditEvent,
    name: 'AuditEventConnection',
    ...adminOnly,
    edgesNullable: { list: false, items: false },
    nodeNullable: false,
  },
  { name: 'AuditEventEdge', ...adminOnly },
);

builder.queryField('auditEvents', (t) =>
  t.field({
    type: AuditEventConnection,
    description:
      'The audit trail, newest first (admin only): one event per committed write, with who, what and the request id. `first` defaults to 100, at most 1000.',
    args: {
      first: t.arg.int({ required: false, description: 'Page size (default 100, at most 1000).' }),
      after: t.arg.string({ required: false, description: 'The endCursor of the previous page.' }),
      since: t.arg.string({
        required: false,
        description: "Only events since this ISO 8601 time or duration back from now ('1h', '7d').",
      }),
      consumer: t.arg.id({ required: false, description: 'Only events writing this consumer.' }),
      provider: t.arg.id({ required: false, description: 'Only events writing this provider.' }),
      actor: t.arg.string({
        required: false,
        description: 'Only events by this token id, token name or user id.',
      }),
    },
    resolve: async (_root, args, ctx) => {
      const limit = pageSizeOrThrow(args.first);
      const rows = await listAuditEvents(ctx.services.dataSource, {
        since: args.since ? parseSinceOrThrow(args.since) : null,
        consumer: args.consumer ? String(args.consumer) : null,
        provider: args.provider ? String(args.provider) : null,
        actor: args.actor ?? null,
        beforeId: args.after ? cursorValueOrThrow(KIND, args.after, 1) : null,
        limit,
      });
      return idConnectionOf(KIND, rows, limit);
    },
  }),
);
