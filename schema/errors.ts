// The one error boundary: domain PlacementError -> GraphQLError with extensions.code; everything
// else is masked as "Unexpected error." (stack traces never reach clients).
import { GraphQLError } from 'graphql';
import { DATABASE_UNAVAILABLE, isDatabaseUnavailableError } from '../src/db/unavailable';
import { isPlacementError, UnavailableError } from '../src/placement/errors';

/** yoga `maskedErrors.maskError`: keeps domain errors, masks the rest. */
export function maskError(error: unknown, message: string): Error {
  const raw = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  // A database restart or lost connection is a retryable berth.unavailable, not an internal error.
  const original = isDatabaseUnavailableError(raw)
    ? new UnavailableError(DATABASE_UNAVAILABLE)
    : raw;
  if (isPlacementError(original)) {
    return new GraphQLError(original.message, {
      nodes: error instanceof GraphQLError ? error.nodes : undefined,
      path: error instanceof GraphQLError ? error.path : undefined,
      extensions: { code: original.code, status: original.status },
    });
  }
  if (
    error instanceof GraphQLError &&
    (!error.originalError || error.originalError instanceof GraphQLError)
  ) {
    // Validation/parse errors written by graphql-js itself are safe to show, and so are input
    // coercion errors (e.g. an Int above 2^31 - 1), which wrap a GraphQLError from the scalar.
    // Variable coercion errors come without a code: give them the stable BAD_USER_INPUT.
    if (typeof error.extensions?.code !== 'string') {
      return new GraphQLError(error.message, {
        nodes: error.nodes,
        path: error.path,
        extensions: { ...error.extensions, code: 'BAD_USER_INPUT' },
      });
    }
    return error;
  }
  return new GraphQLError(message, {
    path: error instanceof GraphQLError ? error.path : undefined,
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  });
}
