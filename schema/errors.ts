// The one error boundary: domain PlacementError -> GraphQLError with extensions.code; everything
// else is masked as "Unexpected error." (stack traces never reach clients).
import { GraphQLError } from 'graphql';
import { isPlacementError } from '../src/placement/errors';

/** yoga `maskedErrors.maskError`: keeps domain errors, masks the rest. */
export function maskError(error: unknown, message: string): Error {
  const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  if (isPlacementError(original)) {
    return new GraphQLError(original.message, {
      nodes: error instanceof GraphQLError ? error.nodes : undefined,
      path: error instanceof GraphQLError ? error.path : undefined,
      extensions: { code: original.code, status: original.status },
    });
  }
  if (error instanceof GraphQLError && !error.originalError) {
    // Validation/parse errors written by graphql-js itself are safe to show.
    return error;
  }
  return new GraphQLError(message, {
    path: error instanceof GraphQLError ? error.path : undefined,
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  });
}
