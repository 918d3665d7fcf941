import { useEffect, useRef } from 'react';

/**
 * A list screen's sort, filters, search and page kept in the address (`#/shipments?status=pending&page=3`),
 * so a reload and the back button bring the list back as it was. The address is replaced, not
 * pushed, as they change: one history entry per screen, not one per key typed in the search.
 */

/** The query of the address when it is `base`'s (`/shipments?…`), else null. */
export function addressQuery(base: string): URLSearchParams | null {
  const hash = window.location.hash.replace(/^#/, '');
  const [path, query = ''] = hash.split('?');
  return path === base ? new URLSearchParams(query) : null;
}

/** `{ page: 2, status: '' }` → `page=2`: empty values are left out. */
export function queryString(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== '') params.set(name, String(value));
  return params.toString();
}

/**
 * Writes `query` into the address while the screen at `base` shows, and hands `apply` an address's
 * query that the screen did not write (a link to `/shipments?search=…`, a history step).
 */
export function useQueryInAddress(base: string, query: string, apply: (params: URLSearchParams) => void): void {
  const latest = useRef({ query, apply });
  latest.current = { query, apply };
  useEffect(() => {
    const read = () => {
      const shown = addressQuery(base)?.toString() ?? '';
      if (shown && shown !== latest.current.query) latest.current.apply(new URLSearchParams(shown));
    };
    read();
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, [base]);
  useEffect(() => {
    if (addressQuery(base) === null) return;
    const target = `#${base}${query ? `?${query}` : ''}`;
    if (window.location.hash !== target) window.history.replaceState(window.history.state, '', target);
  }, [base, query]);
}

/** A whole number ≥ 1 from the address, else 1. */
export function pageParam(params: URLSearchParams): number {
  const page = Number(params.get('page'));
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}
