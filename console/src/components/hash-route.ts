// The route lives in the URL hash (#/providers?state=FULL&sort=UTILISATION:VCPU&page=2) so every
// view, filters and sort included, can be linked to, bookmarked and reloaded.
import { useCallback, useEffect, useState } from 'react';

/** Where the hash points: `section/id` and the query after `?`. */
export interface Route {
  readonly section: string;
  readonly id: string | undefined;
  readonly params: URLSearchParams;
}

/** Parses a hash such as `#/projects/p1?consumer=x`. */
export function parseHash(hash: string): Route {
  const body = hash.replace(/^#\/?/, '');
  const q = body.indexOf('?');
  const path = q < 0 ? body : body.slice(0, q);
  const [section, id] = path.split('/');
  return {
    section: section || 'overview',
    id: id ? decodeURIComponent(id) : undefined,
    params: new URLSearchParams(q < 0 ? '' : body.slice(q + 1)),
  };
}

/** The current route, updated on every hash change. */
export function useRoute(): Route {
  const [hash, setHash] = useState(window.location.hash);
  useEffect(() => {
    const on = () => setHash(window.location.hash);
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return parseHash(hash);
}

/**
 * A setter for the query of the current section's hash: empty values are dropped, so the plain URL stays short. `replace` changes the entry instead of adding one.
 */
export function useHashParams(
  path: string,
  params: URLSearchParams,
): (changes: Record<string, string | null>, replace?: boolean) => void {
  return useCallback(
    (changes, replace = false) => {
      const next = new URLSearchParams(params);
      for (const [k, v] of Object.entries(changes)) {
        if (v === null || v === '') {
          next.delete(k);
        } else {
          next.set(k, v);
        }
      }
      const query = next.toString();
      const hash = `#/${path}${query ? `?${query}` : ''}`;
      if (replace) {
        // Typing in a filter: one history entry for the whole word, not one per key.
        window.location.replace(hash);
      } else {
        window.location.hash = hash;
      }
    },
    [path, params],
  );
}
