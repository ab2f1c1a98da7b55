// The GraphQL client: urql for queries and mutations, graphql-sse for subscriptions (berth serves
// them as Server-Sent Events on /graphql). A token, when auth is on, goes in Authorization.
import { createClient as createSseClient } from 'graphql-sse';
import { Client, cacheExchange, fetchExchange, subscriptionExchange } from 'urql';

const TOKEN_KEY = 'berth.token';

/** The token kept for this browser tab (session storage: gone when the tab closes). */
export function storedToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function storeToken(token: string | null): void {
  if (token) {
    sessionStorage.setItem(TOKEN_KEY, token);
  } else {
    sessionStorage.removeItem(TOKEN_KEY);
  }
}

/** A client sending `token` (null: none). */
export function createClient(token: string | null): Client {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const sse = createSseClient({ url: '/graphql', headers, retryAttempts: 5 });
  return new Client({
    url: '/graphql',
    requestPolicy: 'cache-and-network',
    fetchOptions: () => ({ headers }),
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          const body = { ...request, query: request.query ?? '' };
          return {
            subscribe(sink) {
              return { unsubscribe: sse.subscribe(body, sink) };
            },
          };
        },
      }),
    ],
  });
}
