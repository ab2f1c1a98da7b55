// One provider: its state, its tree (NUMA cells, GPUs), per-class usage, traits, aggregates with
// their metadata, the consumers holding allocations on it, and for a host (a root provider) a
// drain plan on demand (planning/drain-plan.tsx).
import { useState } from 'react';
import { useQuery } from 'urql';
import { amount } from '../format';
import { graphql } from '../graphql';
import { DrainPanel } from '../planning/drain-plan';
import { AggregateLink, Badge, ConsumersTable, ErrorBox, FULL_AT, UsageBar } from '../ui';

/** The trait Nova sets on a disabled compute node's provider. */
const DISABLED = 'COMPUTE_STATUS_DISABLED';

const PROVIDER = graphql(`
  query Provider($uuid: ID!) {
    resourceProvider(uuid: $uuid) {
      uuid
      name
      generation
      traits
      inventories { resourceClass total reserved allocationRatio capacityExact usedExact }
      aggregates { uuid name metadata { key value } }
      treeCapacity { resourceClass capacity used }
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
  const [draining, setDraining] = useState<string | null>(null);
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
  const full = rp.inventories.some(
    (i) => i.capacityExact > 0 && i.usedExact / i.capacityExact >= FULL_AT,
  );
  const zone = rp.aggregates
    .flatMap((a) => a.metadata.filter((m) => m.key === 'availability_zone').map((m) => m.value))
    .at(0);
  return (
    <div>
      <div className="page-title">
        <h2>
          {rp.name}
          {rp.traits.includes(DISABLED) && <Badge kind="disabled">disabled</Badge>}
          {full && <Badge kind="full">≥ 90 % full</Badge>}
        </h2>
        <p className="subtitle">
          <a href="#/providers">Providers</a> › <code>{rp.uuid}</code> · generation {rp.generation}
          {zone && ` · zone ${zone}`}
          {rp.root.uuid !== rp.uuid && (
            <>
              {' '}
              · in the tree of <a href={`#/providers/${rp.root.uuid}`}>{rp.root.name}</a>
            </>
          )}
        </p>
        {rp.root.uuid === rp.uuid && (
          <button
            type="button"
            className="drain-button"
            aria-expanded={draining === rp.uuid}
            onClick={() => setDraining(draining === rp.uuid ? null : rp.uuid)}
          >
            {draining === rp.uuid ? 'Hide drain plan' : 'Plan drain'}
          </button>
        )}
      </div>
      {draining === rp.uuid && <DrainPanel hosts={[rp.uuid]} />}
      <section aria-label="Tree" className="panel">
        <h3>Tree</h3>
        <ul className="tree">
          <Tree node={rp.root} current={rp.uuid} />
        </ul>
      </section>
      <section aria-label="Usage" className="panel">
        <h3>Usage</h3>
        {rp.inventories.length === 0 && <p>No inventory.</p>}
        {rp.inventories.length > 0 && (
          <table className="dense">
            <thead>
              <tr>
                <th scope="col">Resource class</th>
                <th scope="col">Used / capacity</th>
                <th scope="col" className="num">
                  Total
                </th>
                <th scope="col" className="num">
                  Reserved
                </th>
                <th scope="col" className="num">
                  Ratio
                </th>
              </tr>
            </thead>
            <tbody>
              {rp.inventories.map((i) => (
                <tr key={i.resourceClass} data-class={i.resourceClass}>
                  <th scope="row">{i.resourceClass}</th>
                  <td>
                    <UsageBar
                      label={i.resourceClass}
                      resourceClass={i.resourceClass}
                      used={i.usedExact}
                      capacity={i.capacityExact}
                      warnAt={FULL_AT}
                      hideLabel
                    />
                  </td>
                  <td className="num">{amount(i.resourceClass, i.total)}</td>
                  <td className="num">{amount(i.resourceClass, i.reserved)}</td>
                  <td className="num">{i.allocationRatio}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {rp.root.children.length > 0 && (
        <section aria-label="Tree usage" className="panel">
          <h3>
            Whole tree <small>({rp.root.name} and its children)</small>
          </h3>
          {rp.treeCapacity.map((l) => (
            <div key={l.resourceClass} data-tree-class={l.resourceClass}>
              <UsageBar
                label={l.resourceClass}
                resourceClass={l.resourceClass}
                used={l.used}
                capacity={l.capacity}
                warnAt={FULL_AT}
              />
            </div>
          ))}
        </section>
      )}
      <section aria-label="Traits" className="panel">
        <h3>Traits</h3>
        {rp.traits.length === 0 && <p>None.</p>}
        <ul className="chips">
          {rp.traits.map((t) => (
            <li key={t}>
              <a href={`#/providers?trait=${t}`}>{t}</a>
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Aggregates" className="panel">
        <h3>Aggregates</h3>
        {rp.aggregates.length === 0 && <p>None.</p>}
        <ul>
          {rp.aggregates.map((a) => (
            <li key={a.uuid}>
              <AggregateLink uuid={a.uuid} name={a.name} />
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
            .map((a) => `${a.resourceClass} ${amount(a.resourceClass, a.used)}`)
            .join(', ')
        }
      />
    </div>
  );
}
