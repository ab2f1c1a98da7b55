// Which errors mean "database unreachable, retry" (src/db/unavailable.ts).
import {
  QueryFailedError,
  QueryRunnerAlreadyReleasedError,
  QueryRunnerProviderAlreadyReleasedError,
} from 'typeorm';
import { isDatabaseUnavailableError } from '../../../src/db/unavailable';

const pgError = (message: string, code?: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailableError', () => {
  it.each([
    {
      name: 'fast shutdown terminates the session',
      err: pgError('terminating connection due to administrator command', '57P01'),
      want: true,
    },
    {
      name: 'server starting or stopping refuses the login',
      err: pgError('the database system is shutting down', '57P03'),
      want: true,
    },
    {
      name: 'connection exception class 08',
      err: pgError('connection failure', '08006'),
      want: true,
    },
    {
      name: 'connection refused while the server is down',
      err: pgError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      want: true,
    },
    {
      name: 'socket reset mid-handshake',
      err: pgError('connect ECONNRESET 127.0.0.1:5432', 'ECONNRESET'),
      want: true,
    },
    {
      name: 'node-postgres lost connection (no code)',
      err: new Error('Connection terminated unexpectedly'),
      want: true,
    },
    {
      name: 'pool connect timeout (no code)',
      err: new Error('timeout exceeded when trying to connect'),
      want: true,
    },
    {
      name: 'TypeORM wrapping a lost connection',
      err: new QueryFailedError('SELECT 1', [], new Error('Connection terminated unexpectedly')),
      want: true,
    },
    {
      name: 'TypeORM query runner released by a lost connection mid-transaction',
      err: new QueryRunnerProviderAlreadyReleasedError(),
      want: true,
    },
    {
      name: 'TypeORM COMMIT on a runner the lost connection released (outcome unknown)',
      err: new QueryRunnerAlreadyReleasedError(),
      want: true,
    },
    {
      name: 'a syntax error is a bug, not an outage',
      err: pgError('syntax error at or near "x"', '42601'),
      want: false,
    },
    {
      name: 'a unique violation is not an outage',
      err: pgError('duplicate key', '23505'),
      want: false,
    },
    {
      name: 'a deadlock is a conflict, not an outage',
      err: pgError('deadlock detected', '40P01'),
      want: false,
    },
    { name: 'a plain programming error', err: new TypeError('x is undefined'), want: false },
    { name: 'not an error at all', err: 'ECONNRESET', want: false },
  ])('$name -> $want', ({ err, want }) => {
    expect(isDatabaseUnavailableError(err)).toBe(want);
  });
});
