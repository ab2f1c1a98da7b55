// GET /allocation_candidates: allocation requests and provider summaries in the shape of the
// requested microversion (upstream: placement/handlers/allocation_candidate.py).
import type { Services } from '../../app/services';
import { candidatesJson } from '../candidate-json';
import { candidateRequestOrThrow } from '../candidate-query';
import { wantsCandidateStageOrThrow, withCandidateStage } from '../candidate-stage-json';
import { mapDomainErrors } from '../domain-errors';
import { type RestRequest, schemaFor } from '../request';
import { type RestResponse, withCacheHeaders } from '../response';
import { GET_AC_SCHEMAS } from '../schemas/allocation-candidate';

/** GET /allocation_candidates (1.10). */
export async function listAllocationCandidates(
  req: RestRequest,
  svc: Services,
): Promise<RestResponse> {
  req.requireVersionOrThrow('1.10');
  req.checkAcceptOrThrow();
  req.authorizeOrThrow('placement:allocation_candidates:list');
  req.query.validateOrThrow(schemaFor(req, GET_AC_SCHEMAS));
  const request = candidateRequestOrThrow(req.query, req.version);
  const explain = wantsCandidateStageOrThrow(req);
  const cands = await mapDomainErrors(() =>
    svc.candidateAnswers.find(request, { nestedAware: req.matches('1.29') }),
  );
  const body = candidatesJson(cands, {
    dict: req.matches('1.12'),
    mappings: req.matches('1.34'),
    traits: req.matches('1.17'),
    tree: req.matches('1.29'),
    requestedClasses: req.matches('1.27')
      ? undefined
      : new Set(request.groups.flatMap((g) => Object.keys(g.resources))),
  });
  return withCacheHeaders(req, {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: explain
      ? withCandidateStage(body, await svc.candidates.explainStage(request, cands))
      : body,
  });
}
