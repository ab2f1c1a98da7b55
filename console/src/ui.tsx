// Small shared pieces: a usage bar that also states its numbers, and error display.

import type { ReactNode } from 'react';
import type { CombinedError } from 'urql';
import { int, percent } from './format';

/** A horizontal bar of `used` out of `capacity`, with the numbers written next to it. */
export function UsageBar(props: {
  label: string;
  used: number;
  capacity: number;
  reserved?: number;
  warnAt?: number;
  /** The label is shown elsewhere (a table row): keep it for screen readers only. */
  hideLabel?: boolean;
}) {
  const ratio = props.capacity > 0 ? props.used / props.capacity : 0;
  const warn = props.warnAt !== undefined && ratio >= props.warnAt;
  return (
    <div className="usage">
      {!props.hideLabel && <span className="usage-label">{props.label}</span>}
      {/* The bar is decoration: the same numbers are written next to it. */}
      <span className={`bar${warn ? ' warn' : ''}`} aria-hidden="true">
        <span className="fill" style={{ width: `${Math.min(100, ratio * 100)}%` }} />
      </span>
      <span className="usage-text">
        {props.hideLabel && <span className="visually-hidden">{props.label}: </span>}
        {int(props.used)} / {int(props.capacity)} used ({percent(ratio)})
        {props.reserved ? `, ${int(props.reserved)} reserved` : ''}
        {warn ? ` — above ${int(props.warnAt! * 100)} %` : ''}
      </span>
    </div>
  );
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

/** A titled table of consumers; `allocations` words a row's allocations. */
export function ConsumersTable(props: {
  total: number;
  rows: readonly ConsumerRow[];
  showProject?: boolean;
  allocationsTitle: string;
  allocations: (c: ConsumerRow) => ReactNode;
}) {
  return (
    <section aria-label="Consumers">
      <h3>Consumers ({int(props.total)})</h3>
      <table>
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
            <tr key={c.uuid}>
              <td>
                <code>{c.uuid}</code>
              </td>
              <td>{props.showProject ? c.projectId : c.userId}</td>
              <td>{c.consumerType}</td>
              <td>{props.allocations(c)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
