// Rejects GraphQL string input containing NUL (U+0000) before execution: PostgreSQL text cannot
// store it, so no valid berth value contains one, and letting it through turns bad input into a
// database error (found by the mutation fuzzer: deleteInventory(resourceClass: "a\u0000b")).
import { type DocumentNode, GraphQLError, Kind, visit } from 'graphql';

/** The error returned for NUL characters in input. */
export function nulError(): GraphQLError {
  return new GraphQLError('String input must not contain NUL (U+0000) characters.', {
    extensions: { code: 'BAD_USER_INPUT' },
  });
}

/**
 * Answers by document: yoga hands every request with the same text the same parsed document,
 * and documents are never changed, so each is walked once.
 */
const walked = new WeakMap<DocumentNode, boolean>();

/** True when a string literal of `doc` contains U+0000 (e.g. written as "\u0000"). */
export function documentHasNul(doc: DocumentNode): boolean {
  let found = walked.get(doc);
  if (found === undefined) {
    found = walk(doc);
    walked.set(doc, found);
  }
  return found;
}

function walk(doc: DocumentNode): boolean {
  let found = false;
  visit(doc, {
    [Kind.STRING]: (node) => {
      if (node.value.includes('\u0000')) {
        found = true;
      }
    },
  });
  return found;
}
