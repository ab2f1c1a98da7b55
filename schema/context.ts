// Per-request GraphQL context: request id, logger, services and fresh DataLoaders.
import type { Logger } from '../src/logger';
import type { Services } from '../src/services';

/** What every resolver receives. */
export interface Context {
  readonly requestId: string;
  readonly log: Logger;
  readonly services: Services;
}
