// Executes GraphQL operations through yoga.fetch (no port), returning the whole response.
import type { App } from '../../src/app/app';

/** A GraphQL response as clients see it. */
export interface GqlResponse<T = any> {
  data?: T;
  errors?: { message: string; path?: string[]; extensions?: { code?: string; status?: number } }[];
}

/** POSTs `query` with `variables` to the app's /graphql and returns the parsed body. */
export async function gql<T = any>(
  app: App,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<GqlResponse<T>> {
  const res = await app.graphql.fetch('http://berth.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as GqlResponse<T>;
}

/** The error codes of a response, in order. */
export function codes(r: GqlResponse): (string | undefined)[] {
  return (r.errors ?? []).map((e) => e.extensions?.code);
}

/** The first error as `{ code, status, message }`, or undefined when there is none. */
export function firstError(
  r: GqlResponse,
): { code?: string; status?: number; message: string } | undefined {
  const e = r.errors?.[0];
  return e && { code: e.extensions?.code, status: e.extensions?.status, message: e.message };
}
