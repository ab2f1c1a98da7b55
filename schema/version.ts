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
