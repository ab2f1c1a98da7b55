// The berth extension of GET /allocation_candidates: with the request header
// `Berth-Explain: candidates` the answer gains a `berth_candidate_stage` member saying how each
// constraint narrowed the hosts (src/placement/allocation-candidates/candidate-stage.ts).
// Placement clients never send the header, so their answers stay byte-identical.
import type { CandidateStage } from '../placement/allocation-candidates/candidate-stage';
import { BadRequestError, ErrorCode } from '../placement/errors';
import type { RestRequest } from './request';

/** The request header that asks for the explanation. */
export const EXPLAIN_HEADER = 'berth-explain';

/** True when the request asks for the candidate stage. @throws BadRequestError for another value. */
export function wantsCandidateStageOrThrow(req: RestRequest): boolean {
  const raw = req.headers[EXPLAIN_HEADER];
  if (raw === undefined) {
    return false;
  }
  const value = (Array.isArray(raw) ? raw.join(',') : raw).trim().toLowerCase();
  if (value !== 'candidates') {
    throw new BadRequestError(
      `Invalid Berth-Explain header ${JSON.stringify(value)}: the only value is "candidates".`,
      ErrorCode.INVALID_INPUT,
    );
  }
  return true;
}

/** The stage in the REST facade's snake_case. */
function stageJson(s: CandidateStage) {
  const constraint = (c: CandidateStage['constraints'][number]) => ({
    kind: c.kind,
    code: c.code,
    group: c.group,
    label: c.label,
    resource_class: c.resourceClass ?? null,
    amount: c.amount ?? null,
    hosts_alone: c.hostsAlone,
    hosts_after: c.hostsAfter,
  });
  return {
    hosts_total: s.hostsTotal,
    hosts_with_candidates: s.hostsWithCandidates,
    constraints: s.constraints.map(constraint),
    blocking: s.blocking.map(constraint),
    closest_misses: s.closestMisses.map((m) => ({
      host_uuid: m.hostUuid,
      host_name: m.hostName,
      misses: m.misses.map((x) => ({
        kind: x.kind,
        code: x.code,
        label: x.label,
        message: x.message,
      })),
    })),
    summary: s.summary,
  };
}

/** `body` (a JSON object) with `berth_candidate_stage` added as its last member. */
export function withCandidateStage(body: Buffer, stage: CandidateStage): Buffer {
  const text = body.toString('utf8').trimEnd();
  if (!text.endsWith('}')) {
    throw new Error('allocation candidates body is not a JSON object');
  }
  const extra = `"berth_candidate_stage":${JSON.stringify(stageJson(stage))}`;
  const open = text.slice(0, -1).trimEnd();
  const sep = open.endsWith('{') ? '' : ',';
  return Buffer.from(`${open}${sep}${extra}}`, 'utf8');
}
