// A short titled list of hosts (the overview's "≥ 90 % full", "disabled", fullest and emptiest
// hosts): each host a link, with its bar and its state flags. The overview fetches the lists in
// as few requests as it can; this only draws one.
import { useEffect, useRef } from 'react';
import { int, percent } from '../format';
import { Badge, FULL_AT, HostLink, UsageBar } from '../ui';

/** A page of hostList as the lists need it. */
export interface HostListData {
  readonly totalCount: number;
  readonly hosts: readonly {
    readonly uuid: string;
    readonly name: string;
    readonly disabled: boolean;
    readonly maxUtilisation: number;
    readonly usage: readonly {
      readonly resourceClass: string;
      readonly capacity: number;
      readonly used: number;
      readonly utilisation: number;
    }[];
  }[];
}

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
  list: HostListData | undefined;
  /** Show this class's bar (else the host's fullest class). */
  rc?: string;
  /** A link to the full list on the Providers page. */
  more: string;
  empty?: string;
  testId?: string;
  /** A numbered ranking rather than a flag list. */
  ranking?: boolean;
}) {
  const list = props.list;
  const Tag = props.ranking ? 'ol' : 'ul';
  return (
    <section aria-label={props.title} className="panel" data-testid={props.testId}>
      <h3>
        {props.title}
        {list && !props.ranking && <small> ({int(list.totalCount)})</small>}
      </h3>
      {list && list.totalCount === 0 && <p className="none">{props.empty ?? 'None.'}</p>}
      <Tag className={props.ranking ? 'ranking' : 'flags'}>
        {list?.hosts.map((h) => {
          const fullest = [...h.usage].sort((a, b) => b.utilisation - a.utilisation)[0];
          const line = props.rc ? h.usage.find((l) => l.resourceClass === props.rc) : fullest;
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
              {h.maxUtilisation >= FULL_AT && props.ranking && fullest && (
                <Badge kind="full">{fullest.resourceClass} ≥ 90 %</Badge>
              )}
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
