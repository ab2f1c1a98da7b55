// Projects: who holds what, against which quota limits ("near limit" from 80 %, "at limit" from
// 100 %), and one project's quota table and consumers.
import { useEffect } from 'react';
import { useQuery } from 'urql';
import { amount, int, percent } from '../format';
import { graphql } from '../graphql';
import { Badge, ConsumersTable, ErrorBox, ProjectLink, UsageBar } from '../ui';

const PROJECTS = graphql(`
  query Projects {
    projects(first: 100) {
      totalCount
      edges { node { projectId consumerCount usages { resourceClass used } } }
    }
  }
`);

const QUOTA = graphql(`
  query ProjectQuota($projectId: String!) {
    quota(projectId: $projectId) { lines { resource limit usedExact remaining } }
  }
`);

const CONSUMERS = graphql(`
  query ProjectConsumers($projectId: String!) {
    consumers(filter: { projectId: $projectId }, first: 200) {
      totalCount
      edges { node { uuid projectId userId consumerType allocations { resourceClass used provider { uuid name } } } }
    }
  }
`);

/** Quota state of one line: at limit from 100 %, near limit from 80 %. */
export function quotaState(used: number, limit: number | null): 'at-limit' | 'near-limit' | 'ok' {
  if (limit === null) {
    return 'ok';
  }
  const ratio = limit > 0 ? used / limit : used > 0 ? Number.POSITIVE_INFINITY : 1;
  return ratio >= 1 ? 'at-limit' : ratio >= 0.8 ? 'near-limit' : 'ok';
}

/** A consumer's allocations grouped by provider, in first-seen order. */
function byProvider<
  A extends { readonly provider: { readonly uuid: string; readonly name?: string } },
>(allocations: readonly A[]): [A['provider'], A[]][] {
  const groups = new Map<string, [A['provider'], A[]]>();
  for (const a of allocations) {
    const g = groups.get(a.provider.uuid);
    if (g) {
      g[1].push(a);
    } else {
      groups.set(a.provider.uuid, [a.provider, [a]]);
    }
  }
  return [...groups.values()];
}

function StateBadge({ state }: { state: 'at-limit' | 'near-limit' | 'ok' }) {
  if (state === 'ok') {
    return <span className="none">ok</span>;
  }
  return <Badge kind={state}>{state === 'at-limit' ? 'at limit' : 'near limit'}</Badge>;
}

/** A project's limited lines in a list row: "VCPU 90.0 %" each, and the worst state. */
function QuotaCell({ projectId }: { projectId: string }) {
  const [r] = useQuery({ query: QUOTA, variables: { projectId } });
  const lines = r.data?.quota.lines.filter((l) => l.limit !== null) ?? [];
  if (r.error) {
    return <td colSpan={2}>—</td>;
  }
  const states = lines.map((l) => quotaState(l.usedExact, l.limit));
  const worst = states.includes('at-limit')
    ? 'at-limit'
    : states.includes('near-limit')
      ? 'near-limit'
      : 'ok';
  return (
    <>
      <td className="nowrap">
        {r.data && lines.length === 0 && <span className="none">no limits</span>}
        {lines.map((l) => (
          <span key={l.resource} className="quota-pair">
            {l.resource} {percent(l.limit ? l.usedExact / l.limit : 0)}
          </span>
        ))}
      </td>
      <td data-field="quota-state">{r.data && <StateBadge state={worst} />}</td>
    </>
  );
}

export function Projects() {
  const [r] = useQuery({ query: PROJECTS });
  if (r.error) {
    return <ErrorBox error={r.error} />;
  }
  const rows = [...(r.data?.projects.edges ?? [])].sort((a, b) =>
    a.node.projectId.localeCompare(b.node.projectId),
  );
  return (
    <div>
      <div className="page-title">
        <h2>Projects</h2>
        <p className="subtitle">
          {int(r.data?.projects.totalCount ?? 0)} projects hold allocations. Quota: near limit from
          80 %, at limit from 100 %.
        </p>
      </div>
      <div className="scroll-x">
        <table className="dense projects" data-testid="projects">
          <thead>
            <tr>
              <th scope="col">Project</th>
              <th scope="col" className="num">
                Consumers
              </th>
              <th scope="col">Usage</th>
              <th scope="col">Quota used</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ node }) => (
              <tr key={node.projectId} data-project={node.projectId}>
                <th scope="row">
                  <ProjectLink projectId={node.projectId} />
                </th>
                <td className="num">{int(node.consumerCount)}</td>
                <td className="nowrap">
                  {node.usages.map((u) => (
                    <span key={u.resourceClass} className="quota-pair">
                      {u.resourceClass} {amount(u.resourceClass, u.used)}
                    </span>
                  ))}
                </td>
                <QuotaCell projectId={node.projectId} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export function Project({ projectId, highlight }: { projectId: string; highlight: string | null }) {
  const [q] = useQuery({ query: QUOTA, variables: { projectId } });
  const [c] = useQuery({ query: CONSUMERS, variables: { projectId } });
  useEffect(() => {
    if (highlight && c.data) {
      document.getElementById(`consumer-${highlight}`)?.scrollIntoView({ block: 'center' });
    }
  }, [highlight, c.data]);
  const error = q.error ?? c.error;
  if (error) {
    return <ErrorBox error={error} />;
  }
  const lines = q.data?.quota.lines ?? [];
  return (
    <div>
      <div className="page-title">
        <h2>Project {projectId}</h2>
        <p className="subtitle">
          <a href="#/projects">Projects</a> › {projectId}
        </p>
      </div>
      <section aria-label="Quota" className="panel">
        <h3>Quota</h3>
        {q.data && lines.length === 0 && <p>No usage and no limits.</p>}
        {lines.length > 0 && (
          <table className="dense quota" data-testid="quota">
            <thead>
              <tr>
                <th scope="col">Resource</th>
                <th scope="col" className="num">
                  Limit
                </th>
                <th scope="col" className="num">
                  Used
                </th>
                <th scope="col" className="num">
                  %
                </th>
                <th scope="col">Usage</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((l) => {
                const state = quotaState(l.usedExact, l.limit);
                return (
                  <tr key={l.resource} data-resource={l.resource} className={`quota-${state}`}>
                    <th scope="row">{l.resource}</th>
                    <td className="num" data-field="limit">
                      {l.limit === null ? 'unlimited' : amount(l.resource, l.limit)}
                    </td>
                    <td className="num" data-field="used">
                      {amount(l.resource, l.usedExact)}
                    </td>
                    <td className="num" data-field="percent">
                      {l.limit === null ? '—' : percent(l.limit > 0 ? l.usedExact / l.limit : 1)}
                    </td>
                    <td>
                      {l.limit !== null && (
                        <UsageBar
                          label={l.resource}
                          resourceClass={l.resource}
                          used={l.usedExact}
                          capacity={l.limit}
                          warnAt={0.8}
                          hideLabel
                          compact
                        />
                      )}
                    </td>
                    <td data-field="state">
                      {l.limit === null ? (
                        <span className="none">no limit</span>
                      ) : (
                        <StateBadge state={state} />
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
      <ConsumersTable
        total={c.data?.consumers.totalCount ?? 0}
        rows={c.data?.consumers.edges.map((e) => e.node) ?? []}
        allocationsTitle="Allocations"
        highlight={highlight}
        allocations={(row) =>
          byProvider(row.allocations).map(([provider, list], i) => (
            <span key={provider.uuid}>
              {i > 0 && ' · '}
              <a href={`#/providers/${provider.uuid}`}>{provider.name}</a>{' '}
              {list.map((a) => `${a.resourceClass} ${amount(a.resourceClass, a.used)}`).join(', ')}
            </span>
          ))
        }
      />
    </div>
  );
}
