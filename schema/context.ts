// Per-request GraphQL context: request id, logger, services and fresh DataLoaders.
import type { Scheduling } from '../src/app/scheduling';
import type { Services } from '../src/app/services';
import type { Principal } from '../src/auth/authenticator';
import type { Loaders } from '../src/graphql/loaders/create-loaders';
import type { Logger } from '../src/observability/logger';

/** What every resolver receives. */
export interface Context {
  readonly requestId: string;
  readonly log: Logger;
  readonly services: Services;
  /** Created per request (src/graphql/loaders): batched, cached reads for field resolvers. */
  readonly loaders: Loaders;
  /** The scheduling pipeline (explainPlacement, schedule, schedulerPlugins). */
  readonly scheduling: Scheduling;
  /** The authenticated token, or null when authentication is off. */
  readonly caller: Principal | null;
}
