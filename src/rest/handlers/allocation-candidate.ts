// GET /allocation_candidates: allocation requests and provider summaries in the shape of the
// requested microversion (upstream: placement/handlers/allocation_candidate.py).
import type { CandidateRequest } from '../../placement/allocation-candidates/request';
import type {
  AllocationCandidates,
  AllocationRequest,
} from '../../placement/allocation-candidates/results';
import type { Services } from '../../services';
import { candidateRequestOrThrow } from '../candidate-query';
import { mapDomainErrors } from '../domain-errors';
import type { RestRequest } from '../request';
import { jsonResponse, type RestResponse, withCacheHeaders } from '../response';
import { GET_AC_SCHEMAS } from '../schemas/allocation-candidate';

function requestAsDict(req: RestRequest, ar: AllocationRequest) {
  const allocations = Object.fromEntries(
    ar.allocations.map((a) => [a.providerUuid, { resources: a.resources }]),
  );
  return req.matches('1.34') ? { allocations, mappings: ar.mappings } : { allocations };
}

function requestAsList(ar: AllocationRequest) {
  return {
    allocations: ar.allocations.map((a) => ({
      resource_provider: { uuid: a.providerUuid },
      resources: a.resources,
    })),
  };
}

function summaries(req: RestRequest, cands: AllocationCandidates, request: CandidateRequest) {
  const allResources = req.matches('1.27');
  const requested = new Set(request.groups.flatMap((g) => Object.keys(g.resources)));
  const out: Record<string, Record<string, unknown>> = {};
  for (const ps of cands.providerSummaries) {
    const resources = Object.fromEntries(
      ps.resources
        .filter((r) => allResources || requested.has(r.resourceClass))
        .map((r) => [r.resourceClass, { capacity: r.capacity, used: r.used }]),
    );
    const entry: Record<string, unknown> = { resources };
    if (req.matches('1.17')) {
      entry.traits = ps.traits;
    }
    if (req.matches('1.29')) {
      entry.parent_provider_uuid = ps.parentProviderUuid;
      entry.root_provider_uuid = ps.rootProviderUuid;
    }
    out[ps.providerUuid] = entry;
  }
  return out;
}

/** GET /allocation_candidates (1.10). */
export async function listAllocationCandidates(
  req: RestRequest,
  svc: Services,
): Promise<RestResponse> {
  req.requireVersionOrThrow('1.10');
  req.checkAcceptOrThrow();
  req.authorizeOrThrow('placement:allocation_candidates:list');
  const schema = GET_AC_SCHEMAS.find(([min]) => req.matches(min))![1];
  req.query.validateOrThrow(schema);
  const request = candidateRequestOrThrow(req.query, req.version);
  const cands = await mapDomainErrors(() =>
    svc.candidates.find(request, { nestedAware: req.matches('1.29') }),
  );
  const body = {
    allocation_requests: cands.allocationRequests.map((ar) =>
      req.matches('1.12') ? requestAsDict(req, ar) : requestAsList(ar),
    ),
    provider_summaries: summaries(req, cands, request),
  };
  return withCacheHeaders(req, jsonResponse(body));
}
