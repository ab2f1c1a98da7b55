// Puts the first error's stable code of a GraphQL answer on the request log line (src/http/
// error-code.ts): a refused mutation usually answers HTTP 200, so the status alone does not tell
// an operator which requests failed, or why.
import type { ServerResponse } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import { noteErrorCode } from '../http/error-code';

/** A yoga plugin noting each answer's first error code for the request log. */
export function useErrorCodeLog(): Plugin {
  return {
    onResultProcess({ result, serverContext }) {
      const res = (serverContext as { res?: ServerResponse }).res;
      if (!res || Array.isArray(result) || Symbol.asyncIterator in result) {
        return;
      }
      const code = result.errors?.[0]?.extensions?.code;
      if (typeof code === 'string') {
        noteErrorCode(res, code);
      }
    },
  };
}
