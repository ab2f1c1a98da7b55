// GraphQL subscriptions over Server-Sent Events, read as a client reads them: each `next` event's
// JSON payload in order, or the one JSON answer of a subscription refused before it began.

export interface Stream {
  /** The next event's payload ({ data } or { errors }), or 'timeout'. */
  next(
    ms?: number,
  ): Promise<{ data?: any; errors?: { message: string; extensions?: any }[] } | 'timeout'>;
  close(): Promise<void>;
}

/** How a subscription reaches the server: global fetch to a real HTTP server, or yoga's fetch. */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/**
 * Opens a subscription over SSE at `${base}/graphql` and parses its events. `base` is a real HTTP
 * server's address, or any base URL when `fetchFn` is an in-process yoga's `fetch`.
 */
export async function subscribe(
  base: string,
  query: string,
  variables: object = {},
  token?: string,
  fetchFn: Fetch = fetch,
): Promise<Stream> {
  const abort = new AbortController();
  const res = await fetchFn(`${base}/graphql`, {
    signal: abort.signal,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  if (!res.headers.get('content-type')?.includes('text/event-stream')) {
    // Refused before any stream began (401, 429…): one JSON answer.
    const body = await res.json();
    return { next: async () => body, close: async () => {} };
  }
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const events: string[] = [];
  const pull = async (): Promise<boolean> => {
    const { value, done } = await reader.read();
    if (done) {
      return false;
    }
    buffer += decoder.decode(value, { stream: true });
    let cut = buffer.indexOf('\n\n');
    while (cut >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('');
      if (block.includes('event: next') || (!block.includes('event:') && data)) {
        events.push(data);
      }
      cut = buffer.indexOf('\n\n');
    }
    return true;
  };
  let reading: Promise<boolean> | undefined;
  return {
    async next(ms = 10_000) {
      const deadline = Date.now() + ms;
      while (events.length === 0) {
        reading ??= pull().finally(() => {
          reading = undefined;
        });
        const left = deadline - Date.now();
        const r = await Promise.race([
          reading,
          new Promise<'timeout'>((res) => setTimeout(() => res('timeout'), Math.max(0, left))),
        ]);
        if (r === 'timeout' || r === false) {
          return events.length ? JSON.parse(events.shift()!) : 'timeout';
        }
      }
      return JSON.parse(events.shift()!);
    },
    async close() {
      abort.abort(); // the client disconnects
      await reader.cancel().catch(() => undefined);
    },
  };
}
