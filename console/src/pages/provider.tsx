// One provider: its tree, per-class usage, traits, aggregates with their metadata, and the
// consumers holding allocations on it.
import { useQuery } from 'urql';
import { int } from '../format';
import { graphql } from '../graphql';
import { ConsumersTable, ErrorBox, UsageBar } from '../ui';

const PROVIDER = graphql(`
  query Provider($uuid: ID!) {
    resourceProvider(uuid: $uuid) {
      uuid
      name
      generation
      traits
      inventories { resourceClass total reserved allocationRatio capacityExact usedExact }
      aggregates { uuid name metadata { key value } }
      root {
        uuid name
        children { uuid name children { uuid name children { uuid name children { uuid name } } } }
      }
    }
  }
`);

// Separate, so a token that may not list every project's consumers still sees the provider.
const CONSUMERS_ON = graphql(`
  query ConsumersOn($uuid: ID!) {
    consumers(filter: { providerUuid: $uuid }, first: 100) {
      totalCount
      edges {
        node {
          uuid projectId userId consumerType
          allocations { resourceClass used provider { uuid } }
        }
      }
    }
  }
`);

interface TreeNode {
  uuid: string;
  name: string;
  children?: readonly TreeNode[];
}

function Tree({ node, current }: { node: TreeNode; current: string }) {
  return (
    <li>
      {node.uuid === current ? (
        <strong aria-current="page">{node.name}</strong>
      ) : (
        <a href={`#/providers/${node.uuid}`}>{node.name}</a>
      )}
      {node.children && node.children.length > 0 && (
        <ul>
          {node.children.map((c) => (
            <Tree key={c.uuid} node={c} current={current} />
          ))}
        </ul>
      )}
    </li>
  );
}

export function Provider({ uuid }: { uuid: string }) {
  const [r] = useQuery({ query: PROVIDER, variables: { uuid } });
  const [on] = useQuery({ query: CONSUMERS_ON, variables: { uuid } });
  if (r.error) {
    return <ErrorBox error={r.error} />;
  }
  const rp = r.data?.resourceProvider;
  if (r.data && !rp) {
    return <p>No provider with uuid {uuid}.</p>;
  }
  if (!rp) {
    return <p>Loading…</p>;
  }
  const consumers = on.data?.consumers;
  return (
    <div>
      <h2>{rp.name}</h2>
      <p>
        <code>{rp.uuid}</code>, generation {rp.generation}
      </p>
      <section aria-label="Tree">
        <h3>Tree</h3>
        <ul className="tree">
          <Tree node={rp.root} current={rp.uuid} />
        </ul>
      </section>
      <section aria-label="Usage">
        <h3>Usage</h3>
        {rp.inventories.length === 0 && <p>No inventory.</p>}
        {rp.inventories.map((i) => (
          <div key={i.resourceClass} data-class={i.resourceClass}>
            <UsageBar
              label={i.resourceClass}
              used={i.usedExact}
              capacity={i.capacityExact}
              reserved={i.reserved}
            />
            <small>
              total {int(i.total)}, reserved {int(i.reserved)}, allocation ratio {i.allocationRatio}
            </small>
          </div>
        ))}
      </section>
      <section aria-label="Traits">
        <h3>Traits</h3>
        <p>{rp.traits.length ? rp.traits.join(', ') : 'None.'}</p>
      </section>
      <section aria-label="Aggregates">
        <h3>Aggregates</h3>
        {rp.aggregates.length === 0 && <p>None.</p>}
        <ul>
          {rp.aggregates.map((a) => (
            <li key={a.uuid}>
              {a.name ?? <code>{a.uuid}</code>}
              {a.metadata.length > 0 &&
                `: ${a.metadata.map((m) => `${m.key}=${m.value}`).join(', ')}`}
            </li>
          ))}
        </ul>
      </section>
      {on.error && <ErrorBox error={on.error} />}
      <ConsumersTable
        total={consumers?.totalCount ?? 0}
        rows={consumers?.edges.map((e) => e.node) ?? []}
        showProject
        allocationsTitle="Here"
        allocations={(c) =>
          c.allocations
            .filter((a) => a.provider.uuid === rp.uuid)
            .map((a) => `${a.resourceClass} ${int(a.used)}`)
            .join(', ')
        }
      />
    </div>
  );
}
