// Providers: a searchable list, a page at a time (forward cursors; "previous" replays the ones
// already seen).
import { useState } from 'react';
import { useQuery } from 'urql';
import { int } from '../format';
import { graphql } from '../graphql';
import { ErrorBox } from '../ui';

const PAGE_SIZE = 50;

const LIST = graphql(`
  query Providers($filter: ResourceProviderFilter, $first: Int, $after: String) {
    resourceProviders(filter: $filter, first: $first, after: $after) {
      totalCount
      edges { node { uuid name parent { uuid } inventories { resourceClass } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

export function Providers() {
  const [search, setSearch] = useState('');
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const after = cursors.at(-1) ?? null;
  const [r] = useQuery({
    query: LIST,
    variables: {
      filter: search ? { nameContains: search } : null,
      first: PAGE_SIZE,
      after,
    },
  });
  const page = r.data?.resourceProviders;
  const start = (cursors.length - 1) * PAGE_SIZE;
  return (
    <div>
      <h2>Providers</h2>
      <label>
        Name contains{' '}
        <input
          type="search"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setCursors([null]);
          }}
        />
      </label>
      {r.error && <ErrorBox error={r.error} />}
      {page && (
        <p data-testid="provider-count">
          {page.totalCount === 0
            ? 'No provider matches.'
            : `${int(start + 1)}–${int(start + page.edges.length)} of ${int(page.totalCount)}`}
        </p>
      )}
      <table className="providers">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">UUID</th>
            <th scope="col">Resource classes</th>
          </tr>
        </thead>
        <tbody>
          {page?.edges.map(({ node }) => (
            <tr key={node.uuid}>
              <td>
                <a href={`#/providers/${node.uuid}`}>{node.name}</a>
                {node.parent ? ' (child)' : ''}
              </td>
              <td>
                <code>{node.uuid}</code>
              </td>
              <td>{node.inventories.map((i) => i.resourceClass).join(', ')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <nav className="pager" aria-label="Pages">
        <button
          type="button"
          disabled={cursors.length === 1}
          onClick={() => setCursors(cursors.slice(0, -1))}
        >
          Previous
        </button>
        <button
          type="button"
          disabled={!page?.pageInfo.hasNextPage}
          onClick={() => setCursors([...cursors, page?.pageInfo.endCursor ?? null])}
        >
          Next
        </button>
      </nav>
    </div>
  );
}
