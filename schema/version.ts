// GraphQL: server version information.
import { BERTH_VERSION, MAX_MICROVERSION } from '../src/lib/version';
import { cloud } from './access';
import { builder } from './builder';

const Version = builder
  .objectRef<{ berth: string; placementMicroversion: string }>('Version')
  .implement({
    ...cloud,
    description: 'berth and the Placement microversion whose semantics it implements.',
    fields: (t) => ({
      berth: t.exposeString('berth', { description: "berth's version." }),
      placementMicroversion: t.exposeString('placementMicroversion', {
        description: 'The highest Placement microversion the REST facade serves.',
      }),
    }),
  });

builder.queryField('version', (t) =>
  t.field({
    type: Version,
    description: 'The server version and the Placement microversion it implements.',
    resolve: () => ({ berth: BERTH_VERSION, placementMicroversion: MAX_MICROVERSION }),
  }),
);

/** Who the caller is, as berth authorises it. */
interface ViewerRecord {
  readonly role: string;
  readonly projectId: string | null;
  readonly authenticated: boolean;
}

const Viewer = builder.objectRef<ViewerRecord>('Viewer').implement({
  ...cloud,
  description:
    'The caller as berth authorises it: what a UI asks to decide which actions to offer (berth still checks every operation).',
  fields: (t) => ({
    role: t.exposeString('role', {
      description:
        "The token's role (member, reader, scheduler, service, admin; admin when authentication is off).",
    }),
    projectId: t.exposeString('projectId', {
      nullable: true,
      description: 'The project the token is scoped to; null for a token of the whole cloud.',
    }),
    authenticated: t.exposeBoolean('authenticated', {
      description: 'False when authentication is off (every caller may do everything).',
    }),
  }),
});

builder.queryField('viewer', (t) =>
  t.field({
    type: Viewer,
    description: "The caller's role and project scope.",
    resolve: (_r, _a, ctx) => ({
      role: ctx.caller?.role ?? 'admin',
      projectId: ctx.caller?.project ?? null,
      authenticated: ctx.caller !== null,
    }),
  }),
);
