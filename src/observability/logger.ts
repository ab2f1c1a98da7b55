// Structured JSON logging (pino). One root logger; request handlers derive children with a request id.
import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Builds the root logger (stdout, or `destination`). Secrets (tokens, auth headers) are
 * redacted wherever they appear.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'berth' },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-auth-token"]',
        'headers.authorization',
        'headers["x-auth-token"]',
        'token',
        '*.token',
        'secret',
        '*.secret',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
