// The request id of the request being served, carried in the OpenTelemetry context so that spans
// opened deeper down (src/observability/stage.ts) can name it. With no SDK registered the context
// manager is a no-op: `withRequestId` just calls `fn` and nothing is carried (nor needed).
import { type Context, context, createContextKey, trace } from '@opentelemetry/api';
import { ATTR_REQUEST_ID } from './attributes';

const REQUEST_ID = createContextKey('berth request id');

/** Runs `fn` with `requestId` in the active context; names it on the active (server) span too. */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  trace.getActiveSpan()?.setAttribute(ATTR_REQUEST_ID, requestId);
  return context.with(context.active().setValue(REQUEST_ID, requestId), fn);
}

/** The request id in `ctx`, if one was set. */
export function currentRequestId(ctx: Context): string | undefined {
  return ctx.getValue(REQUEST_ID) as string | undefined;
}
