// The audit plugin: every field of Mutation runs in an audit context naming the caller, the field
// and the request id, so the write's transaction appends its event (src/placement/audit.ts). A
// Pothos plugin like scope-auth, listed in schema/builder.ts: a new mutation is audited by being
// a mutation, with nothing to remember in its resolver.
import SchemaBuilder, {
  BasePlugin,
  type PothosOutputFieldConfig,
  type SchemaTypes,
} from '@pothos/core';
import type { GraphQLFieldResolver } from 'graphql';
import { actorOfPrincipal } from '../src/auth/audit-actor';
import { runAudited } from '../src/placement/audit';
import type { Context } from './context';

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      audit: AuditPlugin<Types>;
    }
  }
}

/**
 * Mutations whose input the event keeps in its details (`input`): a `schedule` call's request,
 * so the simulation can replay the audit trail's calls as they were made (src/planning/trace-audit.ts).
 */
const RECORDED_INPUTS: ReadonlySet<string> = new Set(['schedule']);

class AuditPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    if (fieldConfig.parentType !== 'Mutation') {
      return resolver;
    }
    const operation = `mutation ${fieldConfig.name}`;
    const recorded = RECORDED_INPUTS.has(fieldConfig.name);
    return (parent, args, ctx, info) => {
      const { caller, requestId } = ctx as Context;
      const input = (args as { input?: unknown }).input;
      const details = recorded && input !== undefined ? { details: { input } } : {};
      return runAudited({ actor: actorOfPrincipal(caller), operation, requestId, ...details }, () =>
        resolver(parent, args, ctx, info),
      );
    };
  }
}

/** The plugin's name, for the builder's `plugins` list. */
const auditPlugin = 'audit';
SchemaBuilder.registerPlugin(auditPlugin, AuditPlugin);
export default auditPlugin;
