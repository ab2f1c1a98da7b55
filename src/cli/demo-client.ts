// The GraphQL client of `berth demo`: POST /graphql with the admin token as a bearer token, as
// any API client would. Failures a user can act on (server not running, no or a weak token)
// become a DemoRefusal with one line saying what to do.

/** A failure `berth demo` reports as one line and exit status 1. */
export class DemoRefusal extends Error {}

/** A GraphQL error answered for one operation (code from extensions.code). */
export class DemoApiError extends Error {
  constructor(
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

interface GraphQLAnswer {
  readonly data?: Record<string, unknown> | null;
  readonly errors?: readonly { message: string; extensions?: { code?: string } }[];
}

const TOKEN_HINT =
  'create one on the server with `berth token create --role admin --name demo` and pass it with --token or BERTH_TOKEN';

/** Sends GraphQL operations to one berth server. */
export class DemoClient {
  readonly endpoint: string;
  /** Operations sent (the summary reports them). */
  requests = 0;

  constructor(
    readonly baseUrl: string,
    private readonly token: string | undefined,
  ) {
    this.endpoint = `${baseUrl}/graphql`;
  }

  /**
   * Runs one operation and returns its data.
   * @throws DemoRefusal when the server cannot be reached or refuses the token;
   *   DemoApiError for an error answered by the operation.
   */
  async gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const r = await this.post(query, variables);
      if (r.status === 429 && attempt < 5) {
        const wait = Number(r.headers.get('retry-after') ?? '1');
        await new Promise((res) => setTimeout(res, Math.min(Math.max(wait, 0.1), 10) * 1000));
        continue;
      }
      const body = await this.answerOf(r);
      const err = body.errors?.[0];
      if (err) {
        const code = err.extensions?.code;
        if (code === 'berth.unauthenticated') {
          throw new DemoRefusal(
            this.token
              ? `${this.baseUrl} refused the token (${err.message}); ${TOKEN_HINT}`
              : `${this.baseUrl} requires an admin token: ${TOKEN_HINT}`,
          );
        }
        if (code === 'berth.forbidden') {
          throw new DemoRefusal(
            `the token may not do what the demo does (${err.message}); the demo needs an admin token: ${TOKEN_HINT}`,
          );
        }
        throw new DemoApiError(code, err.message);
      }
      if (!body.data) {
        throw new DemoRefusal(
          `${this.endpoint} answered HTTP ${r.status} without GraphQL data; is --url the address of a berth server?`,
        );
      }
      return body.data as T;
    }
  }

  private async post(query: string, variables: Record<string, unknown>): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.token) {
      headers.authorization = `Bearer ${this.token}`;
    }
    this.requests++;
    try {
      return await fetch(this.endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query, variables }),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const why =
        cause?.code === 'ECONNREFUSED'
          ? 'connection refused'
          : (cause?.code ?? cause?.message ?? (err as Error).message);
      throw new DemoRefusal(
        `cannot reach berth at ${this.baseUrl} (${why}); start it with \`npm start\` (or \`berth serve\`), or pass --url`,
      );
    }
  }

  private async answerOf(r: Response): Promise<GraphQLAnswer> {
    const text = await r.text();
    try {
      return JSON.parse(text) as GraphQLAnswer;
    } catch {
      throw new DemoRefusal(
        `${this.endpoint} answered HTTP ${r.status} with no GraphQL response; is --url a berth server?`,
      );
    }
  }
}
