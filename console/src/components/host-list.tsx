// A short titled list of hosts from hostList (the overview's "≥ 90 % full", "disabled", fullest
// and emptiest hosts): each host a link, with its bar and its state flags.
import { useEffect, useRef } from 'react';
import { useQuery } from 'urql';
import { int, percent } from '../format';
import { graphql, type VariablesOf } from '../graphql';
import { Badge, ErrorBox, FULL_AT, HostLink, UsageBar } from '../ui';

const HOSTS = graphql(`
  query HostFlags($filter: HostListFilter, $orderBy: HostListOrder, $first: Int) {
    hostList(filter: $filter, orderBy: $orderBy, first: $first) {
      totalCount
      hosts {
        uuid name disabled maxUtilisation
        usage { resourceClass capacity used utilisation }
      }
    }
  }
`);

type Vars = VariablesOf<typeof HOSTS>;

/** Re-runs a query (network-only) whenever `tick` moves. */
export function useRefresh(tick: number, run: (o: { requestPolicy: 'network-only' }) => void) {
  const seen = useRef(tick);
  useEffect(() => {
    if (seen.current !== tick) {
      seen.current = tick;
      run({ requestPolicy: 'network-only' });
    }
  }, [tick, run]);
}

export function HostList(props: {
  title: string;
  filter?: Vars['filter'];
  order?: Vars['orderBy'];
  /** Show this class's bar (else the host's fullest class). */
  rc?: string;
  /** A link to the full list on the Providers page. */
  more: string;
  empty?: string;
  testId?: string;
  tick: number;
  /** A numbered ranking (20 hosts) rather than a flag list (8). */
  ranking?: boolean;
}) {
  const first = props.ranking ? 20 : 8;
  const [r, run] = useQuery({
    query: HOSTS,
    variables: { filter: props.filter ?? null, orderBy: props.order ?? null, first },
  });
  useRefresh(props.tick, run);
  const list = r.data?.hostList;
  const Tag = props.ranking ? 'ol' : 'ul';
  return (
    <section aria-label={props.title} className="panel" data-testid={props.testId}>
      <h3>
        {props.title}
        {list && !props.ranking && <small> ({int(list.totalCount)})</small>}
      </h3>
      {r.error && <ErrorBox error={r.error} />}
      {list && list.totalCount === 0 && <p className="none">{props.empty ?? 'None.'}</p>}
      <Tag className={props.ranking ? 'ranking' : 'flags'}>
        {list?.hosts.map((h) => {
          const line = props.rc
            ? h.usage.find((l) => l.resourceClass === props.rc)
            : [...h.usage].sort((a, b) => b.utilisation - a.utilisation)[0];
          return (
            <li key={h.uuid} data-host={h.name}>
              <HostLink uuid={h.uuid} name={h.name} />
              {line && (
                <UsageBar
                  label={`${h.name} ${line.resourceClass}`}
                  resourceClass={line.resourceClass}
                  used={line.used}
                  capacity={line.capacity}
                  warnAt={FULL_AT}
                  hideLabel
                  compact
                />
              )}
              {!props.rc && line && <span className="rc">{line.resourceClass}</span>}
              {h.maxUtilisation >= FULL_AT && props.ranking && <Badge kind="full">≥ 90 %</Badge>}
              {h.disabled && <Badge kind="disabled">disabled</Badge>}
              {!line && <span className="none">no inventory ({percent(0)})</span>}
            </li>
          );
        })}
      </Tag>
      {list && list.totalCount > list.hosts.length && (
        <a href={props.more}>All {int(list.totalCount)} on the Providers page →</a>
      )}
    </section>
  );
}
