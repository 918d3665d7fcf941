import { create } from 'zustand';
import type { SortingState, VisibilityState } from '@tanstack/react-table';
import type { ShipmentStatus, TrackingStatus } from '../../../../src-shared/schemas/shipment';

/**
 * Where the user was in the shipments table (page, sort, filter, search, selection), kept while the
 * app is open so coming back from a shipment lands on the same rows. Visible columns are kept
 * across restarts in localStorage.
 */
const COLUMNS_KEY = 'shipdesk.shipments.columns';

function readColumns(): VisibilityState {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(COLUMNS_KEY) ?? '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean'));
    }
  } catch {
    // A damaged entry only costs the column choice.
  }
  return {};
}

interface ShipmentListState {
  page: number;
  sorting: SortingState;
  status: ShipmentStatus | '';
  trackingStatus: TrackingStatus | '';
  /** What is in the search box; the query uses it after a short pause. */
  search: string;
  selected: Set<string>;
  /** References of selected rows, for the batch-send results (selection spans pages). */
  references: Map<string, string>;
  columns: VisibilityState;
  setPage(page: number): void;
  setSorting(sorting: SortingState): void;
  setStatus(status: ShipmentStatus | ''): void;
  setTrackingStatus(trackingStatus: TrackingStatus | ''): void;
  setSearch(search: string): void;
  setSelected(selected: Set<string>, references: Map<string, string>): void;
  setColumns(columns: VisibilityState): void;
}

export const useShipmentList = create<ShipmentListState>()((set) => ({
  page: 1,
  sorting: [{ id: 'createdAt', desc: true }],
  status: '',
  trackingStatus: '',
  search: '',
  selected: new Set(),
  references: new Map(),
  columns: readColumns(),
  setPage: (page) => set({ page }),
  // A new order, filter or search starts again at the first page.
  setSorting: (sorting) => set({ sorting, page: 1 }),
  setStatus: (status) => set({ status, page: 1 }),
  setTrackingStatus: (trackingStatus) => set({ trackingStatus, page: 1 }),
  setSearch: (search) => set({ search, page: 1 }),
  setSelected: (selected, references) => set({ selected, references }),
  setColumns: (columns) => {
    localStorage.setItem(COLUMNS_KEY, JSON.stringify(columns));
    set({ columns });
  },
}));

/** `[{id: 'reference', desc: true}]` → `-reference`, the list operation's sort key. */
export function sortKey(sorting: SortingState): 'createdAt' | '-createdAt' | 'updatedAt' | '-updatedAt' | 'reference' | '-reference' | 'status' | '-status' {
  const first = sorting[0];
  const field =
    first && ['createdAt', 'updatedAt', 'reference', 'status'].includes(first.id)
      ? (first.id as 'createdAt' | 'updatedAt' | 'reference' | 'status')
      : 'createdAt';
  const desc = first ? first.desc : true;
  return desc ? `-${field}` : field;
}
