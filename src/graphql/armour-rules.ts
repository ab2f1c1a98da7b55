// Static cost of a GraphQL operation as a graphql-js validation rule (berth.query_too_costly).
// Kept rather than graphql-armor's cost-limit, which reads no schema: it multiplies a subtree only
// by a literal `first`/`last` (not `limit`, uncapped), so `first: $n` or an omitted `first` costs
// ×1 where ours charges PAGINATED_DEFAULT, and a list field without pagination arguments costs ×1
// where ours charges LIST_DEFAULT (it cannot see that the field's type is a list or a Connection).
// Either gap lets one cheap-looking query ask for an unbounded list. Depth, aliases and
// directives are graphql-armor's (armour-limits.ts).
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

/** List multiplier when a paginated field's `first`/`limit` is a variable or omitted. */
export const PAGINATED_DEFAULT = 100;
/**
 * List multiplier for a list field without pagination arguments, unless the field declares its
 * expected size (`extensions: { listSize }`, e.g. a provider's allocations: hundreds).
 */
export const LIST_DEFAULT = 10;
/** Largest multiplier any one field contributes. */
const MAX_MULTIPLIER = 1000;

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
  if (!isListType(getNullableType(def.type))) {
    return 1;
  }
  // A list field whose real size is known to be larger declares it next to its resolver.
  const declared = def.extensions?.listSize;
  return typeof declared === 'number' ? Math.min(MAX_MULTIPLIER, declared) : LIST_DEFAULT;
}

/**
 * The static cost of an operation: every field costs 1 plus its children, times its list
 * multiplier; fragments are expanded and fragment cycles cut.
 */
export function operationCost(
  ctx: Pick<ValidationContext, 'getSchema' | 'getFragment'>,
  op: OperationDefinitionNode,
): number {
  const schema = ctx.getSchema();
  const root =
    op.operation === 'query'
      ? schema.getQueryType()
      : op.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();

  const walk = (
    set: SelectionSetNode,
    parent: GraphQLNamedType | undefined | null,
    seen: ReadonlySet<string>,
  ): number => {
    let cost = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const def =
          parent && (isObjectType(parent) || isInterfaceType(parent))
            ? parent.getFields()[sel.name.value]
            : undefined;
        const type = def ? getNamedType(def.type) : undefined;
        const m = multiplier(sel, def, parent?.name ?? '');
        const children = sel.selectionSet ? walk(sel.selectionSet, type, seen) : 0;
        cost += m * (1 + children);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const t = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : parent;
        cost += walk(sel.selectionSet, t ?? undefined, seen);
      } else {
        const name = sel.name.value;
        const frag: FragmentDefinitionNode | undefined | null = ctx.getFragment(name);
        if (!frag || seen.has(name)) {
          continue;
        }
        const t = schema.getType(frag.typeCondition.name.value);
        cost += walk(frag.selectionSet, t ?? undefined, new Set([...seen, name]));
      }
      // Stop early: the number only needs to prove the limit is exceeded.
      if (cost > Number.MAX_SAFE_INTEGER / 2) {
        return cost;
      }
    }
    return cost;
  };
  return walk(op.selectionSet, root ?? undefined, new Set());
}

/** A validation rule rejecting operations whose {@link operationCost} is over `maxCost`. */
export function costRule(maxCost: number): ValidationRule {
  return (ctx: ValidationContext) => ({
    OperationDefinition(op) {
      const cost = operationCost(ctx, op);
      if (cost > maxCost) {
        const name = op.name ? `Operation '${op.name.value}'` : 'The operation';
        ctx.reportError(
          new GraphQLError(
            `${name} has an estimated cost of ${cost}; the limit is ${maxCost}. Ask for fewer items (first/limit) or fewer nested lists.`,
            { nodes: [op], extensions: { code: 'berth.query_too_costly' } },
          ),
        );
      }
      return false;
    },
  });
}
