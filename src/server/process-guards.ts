// Process-level safety nets for `berth serve`. Decision: an unhandled promise rejection (a plugin's
// stray async work, say) is logged and the replica keeps serving: nothing on the request path
// depends on it, and every write is a committed PostgreSQL transaction. An uncaught exception
// leaves the process in an unknown state: it is logged, a graceful shutdown is attempted for
// `graceMs`, and the process exits with status 1 for its supervisor to restart it.

import { errorMessage } from '../lib/error-message';
import type { Logger } from '../observability/logger';

/** Installs the handlers; `stop` is the graceful shutdown. Returns a function removing them. */
export function installProcessGuards(log: Logger, stop: () => Promise<void>, graceMs = 5000) {
  const onRejection = (reason: unknown) => {
    log.error({ reason: errorMessage(reason) }, 'unhandled promise rejection (serving on)');
  };
  let exiting = false;
  const onException = (err: unknown) => {
    log.fatal({ err: errorMessage(err) }, 'uncaught exception: shutting down for a restart');
    if (exiting) {
      return;
    }
    exiting = true;
    setTimeout(() => process.exit(1), graceMs).unref();
    stop().finally(() => process.exit(1));
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}
