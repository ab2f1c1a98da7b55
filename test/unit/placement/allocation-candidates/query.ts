// Test helper: parses a GET /allocation_candidates query string (microversion 1.39 syntax) into a
// CandidateRequest, so ported gabbits read like the YAML (upstream: placement/lib.py + util.py).
import type {
  CandidateRequest,
  RequestGroup,
} from '../../../../src/placement/allocation-candidates/request';

interface MutableGroup {
  suffix: string;
  resources: Record<string, number>;
  requiredTraits: string[][];
  forbiddenTraits: string[];
  memberOf: string[][];
  forbiddenAggregates: string[];
  inTree?: string;
}

const KEY = /^(resources|required|member_of|in_tree)([a-zA-Z0-9_-]*)$/;

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
  const groups = new Map<string, MutableGroup>();
  const group = (suffix: string): MutableGroup => {
    let g = groups.get(suffix);
    if (!g) {
      g = {
        suffix,
        resources: {},
        requiredTraits: [],
        forbiddenTraits: [],
        memberOf: [],
        forbiddenAggregates: [],
      };
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
    const m = KEY.exec(key);
    if (m) {
      const g = group(m[2]!);
      if (m[1] === 'resources') {
        for (const item of value.split(',')) {
          const [rc, amount] = item.split(':') as [string, string];
          g.resources[rc] = Number(amount);
        }
      } else if (m[1] === 'required') {
        if (value.startsWith('in:')) {
          g.requiredTraits.push(value.slice(3).split(','));
        } else {
          for (const t of value.split(',')) {
            t.startsWith('!') ? g.forbiddenTraits.push(t.slice(1)) : g.requiredTraits.push([t]);
          }
        }
      } else if (m[1] === 'member_of') {
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
