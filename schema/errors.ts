// The one error boundary: domain PlacementError -> GraphQLError with extensions.code; everything
// else is masked as "Unexpected error." (stack traces never reach clients).
import { GraphQLError } from 'graphql';
import { DATABASE_UNAVAILABLE, isDatabaseUnavailableError } from '../src/db/unavailable';
import { ErrorCode, isPlacementError, UnavailableError } from '../src/placement/errors';
import { graphqlWording } from './error-wording';

/** Placement's query-string codes: GraphQL has no query string, so they read as invalid input. */
const QUERY_STRING_CODES: ReadonlySet<string> = new Set([
  ErrorCode.QUERYPARAM_BAD_VALUE,
  ErrorCode.QUERYPARAM_MISSING_VALUE,
  ErrorCode.ILLEGAL_DUPLICATE_QUERYPARAM,
]);

/** The extensions.code a GraphQL caller receives for a domain error code. */
function graphqlCode(code: string): string {
  return QUERY_STRING_CODES.has(code) ? ErrorCode.INVALID_INPUT : code;
}

/** yoga `maskedErrors.maskError`: keeps domain errors, masks the rest. */
export function maskError(error: unknown, message: string): Error {
  const raw = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  // A database restart or lost connection is a retryable berth.unavailable, not an internal error.
  const original = isDatabaseUnavailableError(raw)
    ? new UnavailableError(DATABASE_UNAVAILABLE)
    : raw;
  if (isPlacementError(original)) {
    return new GraphQLError(graphqlWording(original.message), {
      nodes: error instanceof GraphQLError ? error.nodes : undefined,
      path: error instanceof GraphQLError ? error.path : undefined,
      extensions: { code: graphqlCode(original.code), status: original.status },
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
