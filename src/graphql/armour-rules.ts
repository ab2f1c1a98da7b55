// GraphQL armour as graphql-js validation rules (no extra dependency): maximum depth, aliases and
// static cost per operation, fragments expanded. Each rejection is a validation error with a
// stable extensions.code (berth.query_too_deep / berth.too_many_aliases / berth.query_too_costly).
import {
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLField,
  type GraphQLNamedType,
  getNamedType,
  getNullableType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

/** Limits enforced by {@link armourRule}. */
export interface ArmourLimits {
  readonly maxDepth: number;
  readonly maxAliases: number;
  readonly maxCost: number;
}

/** List multiplier when a paginated field's `first`/`limit` is a variable or omitted. */
export const PAGINATED_DEFAULT = 100;
/** List multiplier for a list field without pagination arguments. */
export const LIST_DEFAULT = 10;
/** Largest multiplier any one field contributes. */
const MAX_MULTIPLIER = 1000;

/** Measured shape of one operation. */
export interface OperationMeasure {
  depth: number;
  aliases: number;
  cost: number;
}

function multiplier(
  field: FieldNode,
  def: GraphQLField<unknown, unknown> | undefined,
  parent: string,
) {
  const paginated = field.arguments?.find(
    (a) => a.name.value === 'first' || a.name.value === 'limit',
  );
  if (paginated) {
    return paginated.value.kind === Kind.INT
      ? Math.min(MAX_MULTIPLIER, Math.max(1, Number(paginated.value.value)))
      : PAGINATED_DEFAULT;
  }
  if (!def) {
    return 1;
  }
  // A Relay connection's edges/nodes carry the connection's own multiplier.
  if (
    parent.endsWith('Connection') &&
    (field.name.value === 'edges' || field.name.value === 'nodes')
  ) {
    return 1;
  }
  if (getNamedType(def.type).name.endsWith('Connection')) {
    return PAGINATED_DEFAULT;
  }
  return isListType(getNullableType(def.type)) ? LIST_DEFAULT : 1;
}

/**
 * Measures an operation: depth (root fields are depth 1), aliased fields and static cost
 * (every field costs 1 plus its children, times its list multiplier). Fragment cycles are cut.
 */
export function measureOperation(
  ctx: Pick<ValidationContext, 'getSchema' | 'getFragment'>,
  op: OperationDefinitionNode,
): OperationMeasure {
  const schema = ctx.getSchema();
  const root =
    op.operation === 'query'
      ? schema.getQueryType()
      : op.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  const out: OperationMeasure = { depth: 0, aliases: 0, cost: 0 };

  const walk = (
    set: SelectionSetNode,
    parent: GraphQLNamedType | undefined | null,
    depth: number,
    seen: ReadonlySet<string>,
  ): number => {
    let cost = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        out.depth = Math.max(out.depth, depth);
        if (sel.alias) {
          out.aliases += 1;
        }
        const def =
          parent && (isObjectType(parent) || isInterfaceType(parent))
            ? parent.getFields()[sel.name.value]
            : undefined;
        const type = def ? getNamedType(def.type) : undefined;
        const m = multiplier(sel, def, parent?.name ?? '');
        const children = sel.selectionSet ? walk(sel.selectionSet, type, depth + 1, seen) : 0;
        cost += m * (1 + children);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const t = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent;
        cost += walk(sel.selectionSet, t ?? undefined, depth, seen);
      } else {
        const name = sel.name.value;
        const frag: FragmentDefinitionNode | undefined | null = ctx.getFragment(name);
        if (!frag || seen.has(name)) {
          continue;
        }
        const t = schema.getType(frag.typeCondition.name.value);
        cost += walk(frag.selectionSet, t ?? undefined, depth, new Set([...seen, name]));
      }
      // Stop early: the numbers only need to prove the limit is exceeded.
      if (cost > Number.MAX_SAFE_INTEGER / 2) {
        return cost;
      }
    }
    return cost;
  };
  out.cost = walk(op.selectionSet, root ?? undefined, 1, new Set());
  return out;
}

/** A validation rule rejecting operations over `limits`. */
export function armourRule(limits: ArmourLimits): ValidationRule {
  return (ctx: ValidationContext) => ({
    OperationDefinition(op) {
      const m = measureOperation(ctx, op);
      const name = op.name ? `Operation '${op.name.value}'` : 'The operation';
      if (m.depth > limits.maxDepth) {
        ctx.reportError(
          new GraphQLError(`${name} is nested ${m.depth} deep; the limit is ${limits.maxDepth}.`, {
            nodes: [op],
            extensions: { code: 'berth.query_too_deep' },
          }),
        );
      }
      if (m.aliases > limits.maxAliases) {
        ctx.reportError(
          new GraphQLError(
            `${name} uses ${m.aliases} aliases; the limit is ${limits.maxAliases}.`,
            { nodes: [op], extensions: { code: 'berth.too_many_aliases' } },
          ),
        );
      }
      if (m.cost > limits.maxCost) {
        ctx.reportError(
          new GraphQLError(
            `${name} has an estimated cost of ${m.cost}; the limit is ${limits.maxCost}. Ask for fewer items (first/limit) or fewer nested lists.`,
            { nodes: [op], extensions: { code: 'berth.query_too_costly' } },
          ),
        );
      }
      return false;
    },
  });
}
