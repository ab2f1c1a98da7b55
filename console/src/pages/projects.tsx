// Projects: usage against quota limits (a warning at 80 %), and the consumers of one project.
import { useQuery } from 'urql';
import { int } from '../format';
import { graphql } from '../graphql';
import { ConsumersTable, ErrorBox, UsageBar } from '../ui';

const PROJECTS = graphql(`
  query Projects {
    projects(first: 200) {
      totalCount
      edges { node { projectId consumerCount usages { resourceClass used } } }
    }
  }
`);

const PROJECT = graphql(`
  query Project($projectId: String!) {
    quota(projectId: $projectId) { lines { resource limit usedExact remaining } }
    consumers(filter: { projectId: $projectId }, first: 100) {
      totalCount
      edges { node { uuid userId consumerType allocations { resourceClass used provider { uuid name } } } }
    }
  }
`);

export function Projects() {
  const [r] = useQuery({ query: PROJECTS });
  if (r.error) {
    return <ErrorBox error={r.error} />;
  }
  return (
    <div>
      <h2>Projects</h2>
      <p>{int(r.data?.projects.totalCount ?? 0)} projects hold allocations.</p>
      <table>
        <thead>
          <tr>
            <th scope="col">Project</th>
            <th scope="col">Consumers</th>
            <th scope="col">Usage</th>
          </tr>
        </thead>
        <tbody>
          {r.data?.projects.edges.map(({ node }) => (
            <tr key={node.projectId}>
              <td>
                <a href={`#/projects/${encodeURIComponent(node.projectId)}`}>{node.projectId}</a>
              </td>
              <td>{int(node.consumerCount)}</td>
              <td>{node.usages.map((u) => `${u.resourceClass} ${int(u.used)}`).join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Project({ projectId }: { projectId: string }) {
  const [r] = useQuery({ query: PROJECT, variables: { projectId } });
  if (r.error) {
    return <ErrorBox error={r.error} />;
  }
  const limited = r.data?.quota.lines.filter((l) => l.limit !== null) ?? [];
  const unlimited = r.data?.quota.lines.filter((l) => l.limit === null) ?? [];
  return (
    <div>
      <h2>Project {projectId}</h2>
      <section aria-label="Quota">
        <h3>Quota</h3>
        {limited.length === 0 && <p>No quota limits.</p>}
        {limited.map((l) => (
          <div key={l.resource} data-resource={l.resource}>
            <UsageBar label={l.resource} used={l.usedExact} capacity={l.limit ?? 0} warnAt={0.8} />
          </div>
        ))}
        {unlimited.length > 0 && (
          <p>
            Unlimited: {unlimited.map((l) => `${l.resource} ${int(l.usedExact)} used`).join(', ')}
          </p>
        )}
      </section>
      <ConsumersTable
        total={r.data?.consumers.totalCount ?? 0}
        rows={r.data?.consumers.edges.map((e) => e.node) ?? []}
        allocationsTitle="Allocations"
        allocations={(c) =>
          c.allocations
            .map((a) => `${a.provider.name}: ${a.resourceClass} ${int(a.used)}`)
            .join(', ')
        }
      />
    </div>
  );
}
