// Small shared pieces: a usage bar that also states its numbers, state badges, links to the pages
// of hosts, aggregates and projects, and error display.

import type { ReactNode } from 'react';
import type { CombinedError } from 'urql';
import { amount, int, percent, usedOf } from './format';

/** A utilisation from which a host or quota is flagged. */
export const FULL_AT = 0.9;

/** A horizontal bar of `used` out of `capacity`, with the numbers written next to it. */
export function UsageBar(props: {
  label: string;
  used: number;
  capacity: number;
  /** Units come from the class (MEMORY_MB in GiB, ...); plain counts without one. */
  resourceClass?: string;
  reserved?: number;
  warnAt?: number;
  /** The label is shown elsewhere (a table row): keep it for screen readers only. */
  hideLabel?: boolean;
  /** Only the bar and the percentage (a dense table cell). */
  compact?: boolean;
}) {
  const ratio = props.capacity > 0 ? props.used / props.capacity : 0;
  const warn = props.warnAt !== undefined && ratio >= props.warnAt;
  const rc = props.resourceClass ?? '';
  return (
    <div className={`usage${props.compact ? ' compact' : ''}`}>
      {!props.hideLabel && <span className="usage-label">{props.label}</span>}
      {/* The bar is decoration: the same numbers are written next to it. */}
      <span className={`bar${warn ? ' warn' : ''}`} aria-hidden="true">
        <span className="fill" style={{ width: `${Math.min(100, ratio * 100)}%` }} />
      </span>
      <span className="usage-text">
        {props.hideLabel && <span className="visually-hidden">{props.label}: </span>}
        {props.compact ? (
          <>
            <span className="pct">{percent(ratio)}</span>{' '}
            <span className="of">{usedOf(rc, props.used, props.capacity)}</span>
          </>
        ) : (
          <>
            {usedOf(rc, props.used, props.capacity)} used ({percent(ratio)})
            {props.reserved ? `, ${amount(rc, props.reserved)} reserved` : ''}
            {warn ? ` — above ${int(props.warnAt! * 100)} %` : ''}
          </>
        )}
      </span>
    </div>
  );
}

/** A small coloured label: "disabled", "≥ 90 % full", "at limit", "near limit". */
export function Badge(props: {
  kind: 'disabled' | 'full' | 'at-limit' | 'near-limit' | 'ok';
  children: ReactNode;
}) {
  return <span className={`badge badge-${props.kind}`}>{props.children}</span>;
}

/** A link to a host's (provider's) page. */
export function HostLink(props: { uuid: string; name: string }) {
  return (
    <a href={`#/providers/${props.uuid}`} className="host-link">
      {props.name}
    </a>
  );
}

/** A link to an aggregate: the providers list filtered to its members. */
export function AggregateLink(props: { uuid: string; name: string | null }) {
  return (
    <a href={`#/providers?aggregate=${props.uuid}`} title={props.uuid}>
      {props.name ?? <code>{props.uuid.slice(0, 8)}</code>}
    </a>
  );
}

/** A link to a project's page. */
export function ProjectLink({ projectId }: { projectId: string }) {
  return <a href={`#/projects/${encodeURIComponent(projectId)}`}>{projectId}</a>;
}

/** What went wrong, with the stable code, 401/403 stated plainly. */
export function ErrorBox({ error }: { error: CombinedError | Error }) {
  const gql = 'graphQLErrors' in error ? error.graphQLErrors : [];
  const codes = gql.map((e) => String(e.extensions?.code ?? ''));
  const lead = codes.includes('berth.unauthenticated')
    ? 'Not signed in (401): enter a token.'
    : codes.includes('berth.forbidden')
      ? 'Not allowed (403): this token may not read this.'
      : 'The request failed.';
  return (
    <div className="error" role="alert">
      <strong>{lead}</strong>
      <ul>
        {gql.length > 0 ? (
          gql.map((e) => (
            <li key={`${String(e.extensions?.code)}:${e.message}`}>
              <code>{String(e.extensions?.code ?? 'error')}</code> {e.message}
            </li>
          ))
        ) : (
          <li>{error.message}</li>
        )}
      </ul>
    </div>
  );
}

/** One consumer's row in a consumers table. */
interface ConsumerRow {
  readonly uuid: string;
  readonly userId: string;
  readonly projectId?: string;
  readonly consumerType: string;
  readonly allocations: readonly {
    readonly resourceClass: string;
    readonly used: number;
    readonly provider: { readonly uuid: string; readonly name?: string };
  }[];
}

/** A titled table of consumers (never wrapped: it scrolls sideways when narrow). */
export function ConsumersTable(props: {
  total: number;
  rows: readonly ConsumerRow[];
  showProject?: boolean;
  allocationsTitle: string;
  allocations: (c: ConsumerRow) => ReactNode;
  /** A consumer uuid to mark (a link to it was followed). */
  highlight?: string | null;
}) {
  return (
    <section aria-label="Consumers" className="panel">
      <h3>
        Consumers ({int(props.total)})
        {props.total > props.rows.length && (
          <small> — the first {int(props.rows.length)} shown</small>
        )}
      </h3>
      <div className="scroll-x">
        <table className="dense nowrap consumers">
          <thead>
            <tr>
              <th scope="col">Consumer</th>
              <th scope="col">{props.showProject ? 'Project' : 'User'}</th>
              <th scope="col">Type</th>
              <th scope="col">{props.allocationsTitle}</th>
            </tr>
          </thead>
          <tbody>
            {props.rows.map((c) => (
              <tr
                key={c.uuid}
                id={`consumer-${c.uuid}`}
                className={props.highlight === c.uuid ? 'highlight' : undefined}
              >
                <td className="mono">
                  {c.projectId ? (
                    <a href={`#/projects/${encodeURIComponent(c.projectId)}?consumer=${c.uuid}`}>
                      {c.uuid}
                    </a>
                  ) : (
                    c.uuid
                  )}
                </td>
                <td>
                  {props.showProject && c.projectId ? (
                    <ProjectLink projectId={c.projectId} />
                  ) : (
                    c.userId
                  )}
                </td>
                <td>{c.consumerType}</td>
                <td>{props.allocations(c)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
