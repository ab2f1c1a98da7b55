// yoga plugin applying the GraphQL armour: parser token limit, depth/alias/cost validation rule
// and, when configured off, no introspection; string input with NUL characters is refused.
import { NoSchemaIntrospectionCustomRule, parse } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { valueHasNul } from '../nul';
import { type ArmourLimits, armourRule } from './armour-rules';
import { documentHasNul, nulError } from './nul-guard';

/** Limits of {@link useArmour}. */
export interface ArmourOptions extends ArmourLimits {
  /** Most lexical tokens per document (graphql-js `maxTokens`). */
  readonly maxTokens: number;
  readonly introspection: boolean;
}

/** Builds the plugin. */
export function useArmour(o: ArmourOptions): Plugin {
  const rule = armourRule(o);
  return {
    onParse({ setParseFn }) {
      setParseFn((source, options) => parse(source, { ...options, maxTokens: o.maxTokens }));
    },
    onExecute({ args, setResultAndStopExecution }) {
      if (valueHasNul(args.variableValues) || documentHasNul(args.document)) {
        setResultAndStopExecution({ errors: [nulError()] });
      }
    },
    onValidate({ addValidationRule }) {
      addValidationRule(rule);
      if (!o.introspection) {
        addValidationRule(NoSchemaIntrospectionCustomRule);
      }
    },
  };
}
