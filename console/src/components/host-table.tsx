// The hosts table of the Providers page: one row per host (root provider) with sortable column
// headers, a usage bar per resource class, state badges, and the host's child providers (NUMA
// cells, GPUs) shown under it on demand.
import { memo, useState } from 'react';
import { useQuery } from 'urql';
import { int, percent } from '../format';
import { graphql, type ResultOf } from '../graphql';
import { AggregateLink, Badge, ErrorBox, FULL_AT, HostLink, UsageBar } from '../ui';

/** One class's usage bar in a row of `name` (a dash when it has no inventory of the class). */
function UsageCell(props: {
  name: string;
  rc: string;
  amounts: { used: number; capacity: number } | undefined;
  dataClass?: boolean;
}) {
  const { name, rc, amounts } = props;
  return (
    <td className="usage-cell" data-class={props.dataClass ? rc : undefined}>
      {amounts ? (
        <UsageBar
          label={`${name} ${rc}`}
          resourceClass={rc}
          used={amounts.used}
          capacity={amounts.capacity}
          warnAt={FULL_AT}
          hideLabel
          compact
        />
      ) : (
        <span className="none">—</span>
      )}
    </td>
  );
}

/** One page of hosts, sorted and filtered by the server (hostList). */
export const HOST_LIST = graphql(`
  query HostList($filter: HostListFilter, $orderBy: HostListOrder, $first: Int, $offset: Int) {
    hostList(filter: $filter, orderBy: $orderBy, first: $first, offset: $offset) {
      totalCount
      hosts {
        uuid name disabled availabilityZone instances maxUtilisation children
        aggregates { uuid name }
        usage { resourceClass capacity used }
      }
    }
  }
`);

type Host = ResultOf<typeof HOST_LIST>['hostList']['hosts'][number];

const CHILDREN = graphql(`
  query HostChildren($uuid: ID!) {
    resourceProvider(uuid: $uuid) {
      uuid
      children {
        uuid name
        inventories { resourceClass capacityExact usedExact }
        children { uuid name inventories { resourceClass capacityExact usedExact } }
      }
    }
  }
`);

/** A sortable column: its id in the URL, its header, and whether it sorts numbers. */
export interface Column {
  readonly id: string;
  readonly label: string;
  readonly numeric: boolean;
  /** A usage column (a bar): its header is left-aligned like the bar. */
  readonly bar?: boolean;
}

/** The current sort: a column id and a direction. */
export interface Sort {
  readonly column: string;
  readonly desc: boolean;
}

function SortHeader(props: { col: Column; sort: Sort; onSort: (s: Sort) => void }) {
  const active = props.sort.column === props.col.id;
  const next = active ? !props.sort.desc : props.col.numeric;
  return (
    <th
      scope="col"
      className={props.col.numeric && !props.col.bar ? 'num' : undefined}
      aria-sort={active ? (props.sort.desc ? 'descending' : 'ascending') : 'none'}
      data-column={props.col.id}
    >
      <button
        type="button"
        className="sort"
        onClick={() => props.onSort({ column: props.col.id, desc: next })}
        title={`Sort by ${props.col.label}, ${next ? 'largest' : 'smallest'} first`}
      >
        {props.col.label}
        <span className="arrow" aria-hidden="true">
          {active ? (props.sort.desc ? '▼' : '▲') : '↕'}
        </span>
      </button>
    </th>
  );
}

interface ChildProvider {
  readonly uuid: string;
  readonly name: string;
  readonly inventories: readonly {
    readonly resourceClass: string;
    readonly capacityExact: number;
    readonly usedExact: number;
  }[];
  readonly children?: readonly ChildProvider[];
}

function flatten(list: readonly ChildProvider[], depth = 1): [ChildProvider, number][] {
  return list.flatMap((c) => [
    [c, depth] as [ChildProvider, number],
    ...flatten(c.children ?? [], depth + 1),
  ]);
}

function ChildRows(props: { uuid: string; classes: readonly string[]; span: number }) {
  const [r] = useQuery({ query: CHILDREN, variables: { uuid: props.uuid } });
  if (r.error) {
    return (
      <tr>
        <td colSpan={props.span}>
          <ErrorBox error={r.error} />
        </td>
      </tr>
    );
  }
  const children = flatten(r.data?.resourceProvider?.children ?? []);
  return (
    <>
      {children.map(([c, depth]) => (
        <tr key={c.uuid} className="child-row" data-child-of={props.uuid}>
          <td />
          <td className={`indent-${Math.min(depth, 3)}`}>
            <span aria-hidden="true">└ </span>
            <HostLink uuid={c.uuid} name={c.name} />
          </td>
          <td colSpan={4} />
          {props.classes.map((rc) => {
            const inv = c.inventories.find((i) => i.resourceClass === rc);
            return (
              <UsageCell
                key={rc}
                name={c.name}
                rc={rc}
                amounts={inv && { used: inv.usedExact, capacity: inv.capacityExact }}
              />
            );
          })}
          <td />
        </tr>
      ))}
    </>
  );
}

/** One host's row (memoised: a hash change re-renders the page, not 50 unchanged rows). */
const HostRowView = memo(function HostRowView(props: { host: Host; classes: readonly string[] }) {
  const h = props.host;
  const [open, setOpen] = useState(false);
  const full = h.maxUtilisation >= FULL_AT;
  return (
    <>
      <tr
        data-host={h.name}
        className={
          [h.disabled ? 'is-disabled' : '', full ? 'is-full' : ''].join(' ').trim() || undefined
        }
      >
        <td className="expand">
          {h.children > 0 && (
            <button
              type="button"
              aria-expanded={open}
              aria-label={`${open ? 'Hide' : 'Show'} the ${h.children} child providers of ${h.name}`}
              onClick={() => setOpen(!open)}
            >
              {open ? '▾' : '▸'} {h.children}
            </button>
          )}
        </td>
        <th scope="row">
          <HostLink uuid={h.uuid} name={h.name} />
        </th>
        <td className="state">
          {h.disabled ? (
            <Badge kind="disabled">disabled</Badge>
          ) : (
            <span className="enabled">enabled</span>
          )}{' '}
          {full && <Badge kind="full">≥ 90 % full</Badge>}
        </td>
        <td>{h.availabilityZone ?? <span className="none">—</span>}</td>
        <td className="aggs">
          {h.aggregates.length === 0 && <span className="none">—</span>}
          {h.aggregates.map((a, i) => (
            <span key={a.uuid}>
              {i > 0 && ', '}
              <AggregateLink uuid={a.uuid} name={a.name} />
            </span>
          ))}
        </td>
        <td className="num" data-field="instances">
          {int(h.instances)}
        </td>
        {props.classes.map((rc) => (
          <UsageCell
            key={rc}
            name={h.name}
            rc={rc}
            amounts={h.usage.find((l) => l.resourceClass === rc)}
            dataClass
          />
        ))}
        <td className="num" data-field="fullest">
          {percent(h.maxUtilisation)}
        </td>
      </tr>
      {open && <ChildRows uuid={h.uuid} classes={props.classes} span={7 + props.classes.length} />}
    </>
  );
});

/** The table: `columns` in order (the usage classes' columns between instances and fullest). */
export function HostTable(props: {
  hosts: readonly Host[];
  classes: readonly string[];
  sort: Sort;
  onSort: (s: Sort) => void;
}) {
  const cols: Column[] = [
    { id: 'name', label: 'Host', numeric: false },
    { id: 'state', label: 'State', numeric: false },
    { id: 'zone', label: 'Zone', numeric: false },
    { id: 'aggregates', label: 'Aggregates', numeric: false },
    { id: 'instances', label: 'Instances', numeric: true },
    ...props.classes.map((rc) => ({ id: rc, label: rc, numeric: true, bar: true })),
    { id: 'fullest', label: 'Fullest', numeric: true },
  ];
  return (
    <div className="scroll-x">
      <table className="dense hosts" data-testid="hosts">
        <thead>
          <tr>
            <th scope="col" className="expand">
              <span className="visually-hidden">Children</span>
            </th>
            {cols.map((c) => (
              <SortHeader key={c.id} col={c} sort={props.sort} onSort={props.onSort} />
            ))}
          </tr>
        </thead>
        <tbody>
          {props.hosts.map((h) => (
            <HostRowView key={h.uuid} host={h} classes={props.classes} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
