// yoga plugin applying the GraphQL armour: the parser's token limit, graphql-armor's depth, alias
// and directive rules (armour-limits.ts), berth's cost rule (armour-rules.ts) and, when
// introspection is closed to the request, no introspection and no "Did you mean …?" suggestions
// (they would spell out the schema one guess at a time); string input with NUL is refused.
// Not graphql-armor here: its max-tokens wraps graphql-js's lexer in a Proxy that counts each
// token (about 3× the parse time of graphql-js's own `maxTokens`, which is used instead), and its
// block-field-suggestions only masks `Did you mean "…"?` during validation, so it would leak
// graphql-js's `Did you mean the enum value "…"?` (enum literals, and variables at execution),
// and it cannot be switched per request (admins and GraphiQL keep suggestions).
import { GraphQLError, NoSchemaIntrospectionCustomRule, parse } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { valueHasNul } from '../lib/nul';
import { type ArmourCountLimits, armourLimitRules } from './armour-limits';
import { costRule } from './armour-rules';
import { documentHasNul, nulError } from './nul-guard';

/** Limits of {@link useArmour}. */
export interface ArmourOptions extends ArmourCountLimits {
  /** Largest static cost of one operation (armour-rules.ts). */
  readonly maxCost: number;
  /** Most lexical tokens per document (graphql-js `maxTokens`). */
  readonly maxTokens: number;
  /** Introspection (and suggestions) for everyone, or for the requests this admits. */
  readonly introspection: boolean | ((request: Request | undefined) => boolean);
}

const SUGGESTION = / ?Did you mean [^?]*\?$/;

/** `errors` with graphql-js's "Did you mean …?" suggestions cut from their messages. */
export function withoutSuggestions<E extends Error>(errors: readonly E[]): (E | GraphQLError)[] {
  return errors.map((e) =>
    e instanceof GraphQLError && SUGGESTION.test(e.message)
      ? new GraphQLError(e.message.replace(SUGGESTION, ''), {
          nodes: e.nodes,
          source: e.source,
          positions: e.positions,
          path: e.path,
          extensions: e.extensions,
        })
      : e,
  );
}

/** Builds the plugin. */
export function useArmour(o: ArmourOptions): Plugin {
  const rules = [...armourLimitRules(o), costRule(o.maxCost)];
  const open = (request: Request | undefined) =>
    typeof o.introspection === 'function' ? o.introspection(request) : o.introspection;
  return {
    onParse({ setParseFn }) {
      setParseFn((source, options) => parse(source, { ...options, maxTokens: o.maxTokens }));
    },
    onExecute({ args, setResultAndStopExecution }) {
      if (valueHasNul(args.variableValues) || documentHasNul(args.document)) {
        setResultAndStopExecution({ errors: [nulError()] });
        return;
      }
      if (open((args.contextValue as { request?: Request }).request)) {
        return;
      }
      return {
        onExecuteDone({ result, setResult }) {
          // Variable coercion suggests enum values ("Did you mean the enum value …?").
          if ('errors' in result && result.errors?.length) {
            setResult({ ...result, errors: withoutSuggestions(result.errors) });
          }
        },
      };
    },
    onValidate({ addValidationRule, context }) {
      for (const rule of rules) {
        addValidationRule(rule);
      }
      if (open((context as { request?: Request }).request)) {
        return;
      }
      addValidationRule(NoSchemaIntrospectionCustomRule);
      return ({ valid, result, setResult }) => {
        if (!valid) {
          setResult(withoutSuggestions(result));
        }
      };
    },
  };
}
