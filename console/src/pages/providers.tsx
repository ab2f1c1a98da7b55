// Providers: the hosts of the cloud (root providers; their NUMA cells and GPUs under each host),
// sorted, filtered and paged by the server (hostList, answered from memory), every choice kept in
// the URL hash so a view can be linked to: #/providers?state=full&sort=VCPU&dir=desc&page=2.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from 'urql';
import { useHashParams } from '../components/hash-route';
import { HOST_LIST, HostTable, type Sort } from '../components/host-table';
import { int } from '../format';
import { graphql, type ResultOf } from '../graphql';
import { ErrorBox } from '../ui';

const PAGE_SIZE = 50;

const CHOICES = graphql(`
  query HostListChoices {
    capacity { lines { resourceClass } }
    aggregates { uuid name metadata { key value } }
    traits(filter: { associated: true }) { name }
  }
`);

/** Sort columns other than the resource classes, as hostList names them. */
const FIELDS: Record<string, string> = {
  name: 'NAME',
  state: 'DISABLED',
  zone: 'AVAILABILITY_ZONE',
  aggregates: 'AGGREGATES',
  instances: 'INSTANCES',
  fullest: 'MAX_UTILISATION',
};

const STATES = [
  ['', 'All'],
  ['enabled', 'Enabled'],
  ['disabled', 'Disabled'],
  ['full', '≥ 90 % full'],
] as const;

type Page = ResultOf<typeof HOST_LIST>['hostList'];

/**
 * The trait filter: applied when the text names a trait some provider has (picked from the list
 * or typed in full) or on Enter, so a half-typed name does not ask the server.
 */
function TraitInput(props: {
  value: string;
  known: readonly string[];
  onChange: (v: string) => void;
}) {
  const [text, setText] = useState(props.value);
  useEffect(() => setText(props.value), [props.value]);
  const apply = (v: string) => {
    if (v !== props.value) {
      props.onChange(v);
    }
  };
  return (
    <label>
      Trait
      <input
        name="trait"
        list="trait-names"
        placeholder="e.g. COMPUTE_STATUS_DISABLED"
        value={text}
        onChange={(e) => {
          const v = e.target.value.trim().toUpperCase();
          setText(v);
          if (v === '' || props.known.includes(v)) {
            apply(v);
          }
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            apply(text);
          }
        }}
      />
      <datalist id="trait-names">
        {props.known.map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
    </label>
  );
}

/** hostList's orderBy for a sort column (a resource class sorts by its utilisation). */
function orderOf(sort: Sort) {
  const direction = sort.desc ? ('DESC' as const) : ('ASC' as const);
  const field = FIELDS[sort.column];
  return field
    ? { field: field as 'NAME', direction }
    : { field: 'UTILISATION' as const, resourceClass: sort.column, direction };
}

export function Providers({ params }: { params: URLSearchParams }) {
  const set = useHashParams('providers', params);
  const name = params.get('name') ?? '';
  const trait = params.get('trait') ?? '';
  const aggregate = params.get('aggregate') ?? '';
  const zone = params.get('zone') ?? '';
  const state = params.get('state') ?? '';
  const sort: Sort = { column: params.get('sort') ?? 'name', desc: params.get('dir') === 'desc' };
  const page = Math.max(1, Number(params.get('page')) || 1);

  const [choices] = useQuery({ query: CHOICES });
  const [r] = useQuery({
    query: HOST_LIST,
    variables: {
      filter: {
        nameContains: name || null,
        trait: trait || null,
        aggregate: aggregate || null,
        availabilityZone: zone || null,
        state: state ? (state.toUpperCase() as 'FULL') : null,
      },
      orderBy: orderOf(sort),
      first: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
    },
  });
  // Keep showing the last page while the next one loads (no blank flash on a page turn).
  const last = useRef<Page | null>(null);
  if (r.data) {
    last.current = r.data.hostList;
  }
  const list = r.data?.hostList ?? (r.error ? null : last.current);
  const lines = choices.data?.capacity[0]?.lines;
  const classes = useMemo(() => lines?.map((l) => l.resourceClass) ?? [], [lines]);
  const aggregates = [...(choices.data?.aggregates ?? [])].sort((a, b) =>
    (a.name ?? a.uuid).localeCompare(b.name ?? b.uuid),
  );
  const zones = [
    ...new Set(
      aggregates.flatMap((a) =>
        a.metadata.filter((m) => m.key === 'availability_zone').map((m) => m.value),
      ),
    ),
  ].sort();
  const pages = Math.max(1, Math.ceil((list?.totalCount ?? 0) / PAGE_SIZE));
  const start = (page - 1) * PAGE_SIZE;
  const filtered = Boolean(name || trait || aggregate || zone || state);
  const go = (p: number) => set({ page: p > 1 ? String(p) : null });

  return (
    <div>
      <div className="page-title">
        <h2>Providers</h2>
        <p className="subtitle">
          Hosts (root providers) with their whole tree's usage. Click a column to sort; open a host
          for its NUMA cells, traits and consumers.
        </p>
      </div>
      <form className="filters" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Name
          <input
            type="search"
            name="name"
            placeholder="part of a name"
            value={name}
            onChange={(e) => set({ name: e.target.value, page: null }, true)}
          />
        </label>
        <TraitInput
          value={trait}
          known={choices.data?.traits.map((t) => t.name) ?? []}
          onChange={(v) => set({ trait: v, page: null })}
        />
        <label>
          Aggregate
          <select
            name="aggregate"
            value={aggregate}
            onChange={(e) => set({ aggregate: e.target.value, page: null })}
          >
            <option value="">All</option>
            {aggregates.map((a) => (
              <option key={a.uuid} value={a.uuid}>
                {a.name ?? a.uuid}
              </option>
            ))}
          </select>
        </label>
        <label>
          Zone
          <select
            name="zone"
            value={zone}
            onChange={(e) => set({ zone: e.target.value, page: null })}
          >
            <option value="">All</option>
            {zones.map((z) => (
              <option key={z}>{z}</option>
            ))}
          </select>
        </label>
        <label>
          State
          <select
            name="state"
            value={state}
            onChange={(e) => set({ state: e.target.value, page: null })}
          >
            {STATES.map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </label>
        {filtered && (
          <a
            className="clear"
            href={`#/providers${sort.column !== 'name' ? `?sort=${sort.column}&dir=${sort.desc ? 'desc' : 'asc'}` : ''}`}
          >
            Clear filters
          </a>
        )}
      </form>
      {r.error && <ErrorBox error={r.error} />}
      <div className="table-head">
        <p data-testid="provider-count" aria-live="polite">
          {list &&
            (list.totalCount === 0
              ? 'No host matches.'
              : `${int(start + 1)}–${int(start + list.hosts.length)} of ${int(list.totalCount)}`)}
        </p>
        {r.fetching && <span className="loading">Loading…</span>}
      </div>
      <HostTable
        hosts={list?.hosts ?? []}
        classes={classes}
        sort={sort}
        onSort={(s) =>
          set({
            sort: s.column === 'name' ? null : s.column,
            dir: s.desc ? 'desc' : null,
            page: null,
          })
        }
      />
      <nav className="pager" aria-label="Pages">
        <button type="button" disabled={page <= 1} onClick={() => go(1)}>
          First
        </button>
        <button type="button" disabled={page <= 1} onClick={() => go(page - 1)}>
          Previous
        </button>
        <span data-testid="page-of">
          Page {int(page)} of {int(pages)}
        </span>
        <button type="button" disabled={page >= pages} onClick={() => go(page + 1)}>
          Next
        </button>
        <button type="button" disabled={page >= pages} onClick={() => go(pages)}>
          Last
        </button>
      </nav>
    </div>
  );
}
