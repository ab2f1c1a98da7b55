// Usages of one provider, and total usages of a project/user (upstream:
// placement/handlers/usage.py).

import type { Services } from '../../app/services';
import type { UsageRecord } from '../../placement/types';
import { mapDomainErrors } from '../domain-errors';
import { ownProjectOrThrow } from '../project-reads';
import { type RestRequest, schemaFor } from '../request';
import { jsonResponse, type RestResponse, withCacheHeaders } from '../response';
import { GET_USAGES_SCHEMA_1_9, GET_USAGES_SCHEMA_V1_38 } from '../schemas/usage';
import { providerOrThrow } from './provider-lookup';

/** Query schemas by minimum microversion, newest first. */
const QUERY_SCHEMAS = [
  ['1.38', GET_USAGES_SCHEMA_V1_38],
  ['1.9', GET_USAGES_SCHEMA_1_9],
] as const;

const byClass = (usages: readonly UsageRecord[]): Record<string, number> =>
  Object.fromEntries(usages.map((u) => [u.resourceClass, u.used]));

/** GET /resource_providers/{uuid}/usages. */
export async function listUsages(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.checkAcceptOrThrow();
  req.authorizeOrThrow('placement:resource_providers:usages');
  const uuid = req.param('uuid');
  const rp = await providerOrThrow(
    svc,
    uuid,
    (u) => `No resource provider with uuid ${u} found: No resource provider with uuid ${u} found`,
  );
  const usages = (await svc.usages.byProviderIds([rp.id])).get(rp.id) ?? [];
  return withCacheHeaders(
    req,
    jsonResponse({ resource_provider_generation: rp.generation, usages: byClass(usages) }),
  );
}

/** GET /usages?project_id=&user_id=&consumer_type= (1.9; grouped by consumer type from 1.38). */
export async function getTotalUsages(req: RestRequest, svc: Services): Promise<RestResponse> {
  req.requireVersionOrThrow('1.9');
  req.checkAcceptOrThrow();
  req.authorizeOrThrow('placement:usages');
  // A project-scoped token is refused another project like a policy failure: before the query.
  ownProjectOrThrow(req.caller, 'placement:usages', req.query.get('project_id') ?? null);
  const byType = req.matches('1.38');
  const query = req.query.validateOrThrow(schemaFor(req, QUERY_SCHEMAS));
  const consumerType = 'consumer_type' in query ? query.consumer_type : undefined;
  const report = await mapDomainErrors(() =>
    svc.usages.forProject({ projectId: query.project_id, userId: query.user_id, consumerType }),
  );
  let usages: Record<string, unknown>;
  if (!byType) {
    usages = byClass(report.total);
  } else if (consumerType === 'all') {
    const count = report.byConsumerType.reduce((n, t) => n + t.consumerCount, 0);
    usages =
      report.total.length > 0 ? { all: { ...byClass(report.total), consumer_count: count } } : {};
  } else {
    usages = Object.fromEntries(
      report.byConsumerType.map((t) => [
        t.consumerType,
        { ...byClass(t.usages), consumer_count: t.consumerCount },
      ]),
    );
  }
  return withCacheHeaders(req, jsonResponse({ usages }));
}
