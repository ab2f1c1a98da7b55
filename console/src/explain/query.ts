// The GraphQL the explain page sends, as text (shown and editable on the page) and as a typed
// document (gql.tada checks it against berth's schema), and how the text is sent: exactly as
// written, with the tab's token.
import { CombinedError } from 'urql';
import { storedToken } from '../client';
import { graphql, type ResultOf } from '../graphql';

/** The query text the page starts from and shows in its GraphQL panel. */
export const EXPLAIN_QUERY = `query Explain($input: ScheduleInput!) {
  explainPlacement(input: $input) {
    profile
    selections { host { uuid name } reason }
    candidateStage {
      hostsTotal
      hostsWithCandidates
      summary
      constraints { kind code group label resourceClass amount hostsAlone hostsAfter }
      blocking { code group label }
      closestMisses { host { uuid name } misses { kind code label message } }
    }
    filterSteps {
      filter
      before
      after
      failure
      reasonGroups { code count message examples { host { uuid name } reason } }
    }
    ranking { host { uuid name } weight weights { weigher normalized multiplier } }
    pluginFailures { plugin phase message }
  }
}`;

const EXPLAIN = graphql(EXPLAIN_QUERY);

/** explainPlacement's answer as the page draws it. */
export type Explained = ResultOf<typeof EXPLAIN>['explainPlacement'];

/** What the form's pickers list. */
export const CHOICES = graphql(`
  query ExplainChoices {
    schedulerProfiles { name }
    aggregates { uuid name }
  }
`);

/** Server groups of the form's project (for the group picker). */
export const GROUPS = graphql(`
  query ExplainGroups($projectId: String!) {
    serverGroups(projectId: $projectId) { uuid name policy }
  }
`);

/** The answer to a run: the explanation, or an error, or an answer the page cannot draw. */
export type RunResult =
  | { readonly explained: Explained }
  | { readonly error: CombinedError | Error }
  | { readonly undrawable: unknown; readonly missing: readonly string[] };

const DRAWN = ['selections', 'filterSteps', 'ranking', 'pluginFailures'] as const;

/** Posts `query` with `variables` to /graphql exactly as written. */
export async function runExplain(query: string, variables: unknown): Promise<RunResult> {
  const token = storedToken();
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ query, variables, operationName: null }),
  });
  let body: { data?: { explainPlacement?: unknown } | null; errors?: unknown[] };
  try {
    body = await res.json();
  } catch {
    return { error: new Error(`berth answered ${res.status} without a GraphQL body`) };
  }
  if (body.errors && body.errors.length > 0) {
    return {
      error: new CombinedError({
        graphQLErrors: body.errors as ConstructorParameters<
          typeof CombinedError
        >[0]['graphQLErrors'],
      }),
    };
  }
  const e = body.data?.explainPlacement;
  if (typeof e !== 'object' || e === null) {
    return { undrawable: body.data, missing: ['explainPlacement'] };
  }
  const missing = DRAWN.filter((k) => !(k in e));
  return missing.length > 0 ? { undrawable: e, missing } : { explained: e as Explained };
}
