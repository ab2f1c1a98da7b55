// Test helper: parses a GET /allocation_candidates query string (microversion 1.39 syntax) into a
// CandidateRequest, so ported gabbits read like the YAML (upstream: placement/lib.py + util.py).
// Group keys and traits go through the domain's own syntax (src/placement/query-syntax). Amounts,
// member_of and in_tree are taken as written: the engine's checks of amounts are under test, and
// these tests name aggregates and providers symbolically ('agg-A') where requests give uuids.
import {
  type CandidateRequest,
  emptyRequestGroup,
  type RequestGroup,
  type RequestGroupDraft,
} from '../../../../src/placement/allocation-candidates/request';
import { parseTraitValueOrThrow, splitGroupKey } from '../../../../src/placement/query-syntax';

/** Parses `qs` (plus the test-only key randomize=true, Placement's config option) (with $ENVIRON['X'] substituted from `env`) into a request. */
export function parseQuery(
  qs: string,
  env: Readonly<Record<string, string>> = {},
): CandidateRequest {
  const text = qs.replace(/\s+/g, '').replace(/\$ENVIRON\['([^']+)'\]/g, (_, k: string) => {
    const v = env[k];
    if (v === undefined) {
      throw new Error(`unknown env ${k}`);
    }
    return v;
  });
  const groups = new Map<string, RequestGroupDraft>();
  const group = (suffix: string): RequestGroupDraft => {
    let g = groups.get(suffix);
    if (!g) {
      g = emptyRequestGroup(suffix);
      groups.set(suffix, g);
    }
    return g;
  };
  const req: {
    groupPolicy?: 'none' | 'isolate';
    limit?: number;
    rootRequired?: string[][];
    rootForbidden?: string[];
    sameSubtree: string[][];
    randomize?: boolean;
  } = { sameSubtree: [] };
  for (const pair of text.replace(/^\?/, '').split('&').filter(Boolean)) {
    const [key, value = ''] = pair.split('=') as [string, string?];
    const m = splitGroupKey(key, true);
    if (m) {
      const g = group(m.suffix);
      if (m.param === 'resources') {
        // Amounts as written: the engine's own checks (amount >= 1, ...) are under test too.
        for (const item of value.split(',')) {
          const [rc, amount] = item.split(':') as [string, string];
          g.resources[rc] = Number(amount);
        }
      } else if (m.param === 'required') {
        const terms = parseTraitValueOrThrow(value);
        g.requiredTraits.push(...terms.required);
        g.forbiddenTraits.push(...terms.forbidden);
      } else if (m.param === 'member_of') {
        if (value.startsWith('!in:')) {
          g.forbiddenAggregates.push(...value.slice(4).split(','));
        } else if (value.startsWith('!')) {
          g.forbiddenAggregates.push(value.slice(1));
        } else {
          g.memberOf.push(value.replace(/^in:/, '').split(','));
        }
      } else {
        g.inTree = value;
      }
    } else if (key === 'group_policy') {
      req.groupPolicy ??= value as 'none' | 'isolate';
    } else if (key === 'limit') {
      req.limit ??= Number(value);
    } else if (key === 'root_required') {
      req.rootRequired = value
        .split(',')
        .filter((t) => !t.startsWith('!'))
        .map((t) => [t]);
      req.rootForbidden = value
        .split(',')
        .filter((t) => t.startsWith('!'))
        .map((t) => t.slice(1));
    } else if (key === 'randomize') {
      req.randomize = value === 'true';
    } else if (key === 'same_subtree') {
      req.sameSubtree.push(value.split(','));
    } else {
      throw new Error(`unsupported key ${key}`);
    }
  }
  return { ...req, groups: [...groups.values()] as RequestGroup[] };
}
