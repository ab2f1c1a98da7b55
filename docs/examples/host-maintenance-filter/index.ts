// HostMaintenanceFilter: hosts in an aggregate whose metadata sets `maintenance` (a ticket, a note)
// take no new instances, except for the projects listed in the `exemptProjects` configuration.
import type { ConfigOf, ConfigSchema, FilterFactory } from '../../../src/scheduler/plugin-api';

export const NAME = 'HostMaintenanceFilter';
export const kind = 'filter';
export const REASON_IN_MAINTENANCE = 'host is in maintenance';
export const CODE_IN_MAINTENANCE = 'maintenance.in_progress';

/** The configuration berth accepts and checks before `create` (built with the zod it hands in). */
export const configSchema = ((z) =>
  z.object({
    exemptProjects: z.array(z.string(), { error: 'must be a list of project ids' }).default([]),
  })) satisfies ConfigSchema;

export const create: FilterFactory<void, ConfigOf<typeof configSchema>> = (config) => ({
  name: NAME,
  kind,
  onError: 'closed',
  filter(host, req) {
    const ticket = host.aggregates.find((a) => a.metadata.maintenance)?.metadata.maintenance;
    if (ticket === undefined || config.exemptProjects.includes(req.projectId)) {
      return { fits: true };
    }
    const reason = `${REASON_IN_MAINTENANCE} (${ticket})`;
    return { fits: false, reason, code: CODE_IN_MAINTENANCE };
  },
});
