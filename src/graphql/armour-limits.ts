// Depth, alias and directive limits per operation, counted by graphql-armor's validation rules
// (@escape.tech/graphql-armor-max-depth, -max-aliases, -max-directives, the rules behind
// @escape.tech/graphql-armor's EnvelopArmor) and reported as berth's validation errors: a stable
// extensions.code, berth's wording and the operation's location instead of the library's
// thrown "Syntax Error: …". The rules are imported one by one because EnvelopArmor's onReject
// callback is not told which operation it rejects, and berth's messages name it.
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import type { GraphQLArmorCallbackConfiguration } from '@escape.tech/graphql-armor-types';
import {
  GraphQLError,
  type OperationDefinitionNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

/** Per-operation limits enforced by {@link armourLimitRules}. */
export interface ArmourCountLimits {
  /** Deepest field nesting; root fields are depth 1, fragments are expanded. */
  readonly maxDepth: number;
  /** Most aliased fields (`__typename` included), fragments expanded. */
  readonly maxAliases: number;
  /** Most directives (`@include`, `@skip`, …), fragments expanded. */
  readonly maxDirectives: number;
}

/** What every graphql-armor counting rule accepts. */
type RuleOptions = GraphQLArmorCallbackConfiguration & { n: number; exposeLimits: boolean };
/** A graphql-armor counting rule: its visitor counts on entering each operation. */
type LibraryRule = (
  options: RuleOptions,
) => (ctx: ValidationContext) => { readonly OperationDefinition: Record<string, unknown> };

/** The count in a library message such as "Query depth limit of 4 exceeded, found 5." */
function found(err: GraphQLError): string {
  return /found (\d+)\.$/.exec(err.message)?.[1] ?? 'more';
}

/**
 * Wraps a graphql-armor rule so that a rejection is reported (not thrown) as berth's error:
 * `wording(subject, found, limit)` with `extensions.code = code`, located at the operation.
 */
function berthRule(
  rule: LibraryRule,
  n: number,
  code: string,
  wording: (subject: string, count: string, limit: number) => string,
): ValidationRule {
  return (ctx) => {
    let op: OperationDefinitionNode | undefined;
    const visitor = rule({
      n,
      exposeLimits: true,
      propagateOnRejection: false,
      onReject: [
        (_ctx, err) => {
          const subject = op?.name ? `Operation '${op.name.value}'` : 'The operation';
          ctx.reportError(
            new GraphQLError(wording(subject, found(err), n), {
              nodes: op ? [op] : undefined,
              extensions: { code },
            }),
          );
        },
      ],
    })(ctx);
    // max-depth's `enter` is not bound to its visitor, so it is called on it.
    const enter = visitor.OperationDefinition.enter as (node: OperationDefinitionNode) => void;
    return {
      OperationDefinition(node) {
        op = node;
        enter.call(visitor, node);
        return false;
      },
    };
  };
}

/**
 * The validation rules rejecting an operation over `limits`, with codes `berth.query_too_deep`,
 * `berth.too_many_aliases` and `berth.too_many_directives`.
 */
export function armourLimitRules(limits: ArmourCountLimits): ValidationRule[] {
  // Counted as berth always has: introspection fields too (GraphiQL's query fits the default
  // depth), and every alias, `__typename` included.
  const depth: LibraryRule = (o) =>
    maxDepthRule({ ...o, flattenFragments: true, ignoreIntrospection: false });
  const aliases: LibraryRule = (o) => maxAliasesRule({ ...o, allowList: [] });
  return [
    berthRule(
      depth,
      limits.maxDepth,
      'berth.query_too_deep',
      (s, c, l) => `${s} is nested ${c} deep; the limit is ${l}.`,
    ),
    berthRule(
      aliases,
      limits.maxAliases,
      'berth.too_many_aliases',
      (s, c, l) => `${s} uses ${c} aliases; the limit is ${l}.`,
    ),
    berthRule(
      maxDirectivesRule,
      limits.maxDirectives,
      'berth.too_many_directives',
      (s, c, l) => `${s} uses ${c} directives; the limit is ${l}.`,
    ),
  ];
}
