// HostMaintenanceFilter: hosts in an aggregate whose metadata sets `maintenance` (a ticket, a note)
// take no new instances, except for the projects listed in the `exemptProjects` configuration.
import type { FilterFactory } from '../../../src/scheduler/plugin-api';

export const NAME = 'HostMaintenanceFilter';
export const kind = 'filter';
export const CONFIG_KEYS: readonly string[] = ['exemptProjects'];
export const REASON_IN_MAINTENANCE = 'host is in maintenance';

export const create: FilterFactory = (config) => {
  const exempt = config.exemptProjects ?? [];
  if (!Array.isArray(exempt) || !exempt.every((p) => typeof p === 'string')) {
    throw new Error(`${NAME}: exemptProjects must be a list of project ids`);
  }
  return {
    name: NAME,
    kind,
    onError: 'closed',
    filter(host, req) {
      const ticket = host.aggregates.find((a) => a.metadata.maintenance)?.metadata.maintenance;
      if (ticket === undefined || exempt.includes(req.projectId)) {
        return { fits: true };
      }
      return { fits: false, reason: `${REASON_IN_MAINTENANCE} (${ticket})` };
    },
  };
};
