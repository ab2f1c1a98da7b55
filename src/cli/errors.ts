// Turns start-up failures into one clear line (no stack traces for expected failures).
import { type Config, ConfigError, loadConfig } from '../config/config';
import { escapeForTerminal } from '../lib/text-table';

/** One-line description of an error, escaped for the terminal (messages quote names and ids). */
export function describeStartupError(err: unknown): string {
  return escapeForTerminal(describeError(err));
}

function describeError(err: unknown): string {
  if (!(err instanceof Error)) {
    return String(err);
  }
  const code = (err as { code?: string }).code;
  const address = (err as { address?: string; port?: number }).address;
  const port = (err as { port?: number }).port;
  switch (code) {
    case 'ECONNREFUSED':
      return `cannot connect to the database at ${address ?? '?'}:${port ?? '?'} (connection refused); check DATABASE_URL`;
    case 'ENOTFOUND':
      return `cannot resolve the database host in DATABASE_URL (${(err as { hostname?: string }).hostname ?? '?'})`;
    case 'EADDRINUSE':
      return `port ${port ?? '?'} is already in use; set PORT to another port`;
    case '28P01':
    case '28000':
      return `database authentication failed: ${err.message}`;
    case '3D000':
      return `database does not exist: ${err.message}`;
    default:
      return err.message.split('\n')[0] ?? String(err);
  }
}

/** Prints `err` as one line (`berth: …`) and exits 1. */
export function exitWithStartupError(err: unknown): never {
  process.stderr.write(`berth: ${describeStartupError(err)}\n`);
  process.exit(1);
}

/** The configuration from the environment; a bad variable is printed as one line and exits 1. */
export function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      exitWithStartupError(err);
    }
    throw err;
  }
}
