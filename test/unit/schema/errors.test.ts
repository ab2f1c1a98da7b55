// The GraphQL error boundary (schema/errors.ts): a lost database is retryable, not masked.
import { GraphQLError } from 'graphql';
import { maskError } from '../../../schema/errors';

describe('maskError', () => {
  it('returns berth.unavailable (503) when the database connection was lost', () => {
    const lost = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    const wrapped = new GraphQLError('x', { originalError: lost, path: ['schedule'] });
    const out = maskError(wrapped, 'Unexpected error.') as GraphQLError;
    expect({ message: out.message, extensions: out.extensions, path: out.path }).toEqual({
      message: 'The database is temporarily unavailable; retry.',
      extensions: { code: 'berth.unavailable', status: 503 },
      path: ['schedule'],
    });
  });

  it('still masks other unexpected errors when they are not about the database', () => {
    const wrapped = new GraphQLError('x', { originalError: new TypeError('boom') });
    const out = maskError(wrapped, 'Unexpected error.') as GraphQLError;
    expect({ message: out.message, code: out.extensions.code }).toEqual({
      message: 'Unexpected error.',
      code: 'INTERNAL_SERVER_ERROR',
    });
  });
});
