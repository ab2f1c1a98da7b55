// yoga plugin applying the GraphQL armour: parser token limit, depth/alias/cost validation rule
// and, when configured off, no introspection.
import { NoSchemaIntrospectionCustomRule, parse } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { type ArmourLimits, armourRule } from './armour-rules';

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
    onValidate({ addValidationRule }) {
      addValidationRule(rule);
      if (!o.introspection) {
        addValidationRule(NoSchemaIntrospectionCustomRule);
      }
    },
  };
}
