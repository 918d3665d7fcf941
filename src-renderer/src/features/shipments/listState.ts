import { create } from 'zustand';
import type { SortingState, VisibilityState } from '@tanstack/react-table';
import { shipmentStatuses, trackingStatuses, type ShipmentStatus, type TrackingStatus } from '../../../../src-shared/schemas/shipment';
import { addressQuery, pageParam, queryString } from '../../lib/addressQuery';

/**
 * Where the user was in the shipments table (page, sort, filters, search, selection), kept while the
 * app is open so coming back from a shipment lands on the same rows, and in the address (all but
 * the selection) so a reload does too. Visible columns are kept across restarts in localStorage.
 */
const COLUMNS_KEY = 'shipdesk.shipments.columns';

/** Columns a user adds from the column chooser: hidden until chosen. */
const OPTIONAL_COLUMNS: VisibilityState = { receiver: false, country: false, orderNumber: false, trackingNumber: false };

/**
 * Whether a column from the chooser is shown: then the table is laid out by its content and may
 * scroll sideways, since the 1024 px layout has no room left for more columns.
 */
export function optionalColumnsShown(columns: VisibilityState): boolean {
  return Object.keys(OPTIONAL_COLUMNS).some((id) => columns[id] === true);
}

function readColumns(): VisibilityState {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(COLUMNS_KEY) ?? '{}');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return {
        ...OPTIONAL_COLUMNS,
        ...Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean')),
      };
    }
  } catch {
    // A damaged entry only costs the column choice.
  }
  return { ...OPTIONAL_COLUMNS };
}

/** The filters beside the search: each '' when not set. Dates are days (YYYY-MM-DD) of this computer's calendar. */
export interface ShipmentFilterValues {
  carrierId: string;
  country: string;
  createdFrom: string;
  createdTo: string;
}

export const noShipmentFilters: ShipmentFilterValues = { carrierId: '', country: '', createdFrom: '', createdTo: '' };

const sortFields = ['createdAt', 'updatedAt', 'reference', 'status'] as const;
const isDay = (value: string | null): value is string => value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The list's place as the address holds it; anything unknown there is left at its default. */
function fromAddress(params: URLSearchParams): Pick<ShipmentListState, 'page' | 'sorting' | 'status' | 'trackingStatus' | 'search' | 'filters'> {
  const sort = params.get('sort') ?? '-createdAt';
  const field = sort.replace(/^-/, '');
  const status = params.get('status') ?? '';
  const trackingStatus = params.get('tracking') ?? '';
  const text = (name: string) => (params.get(name) ?? '').slice(0, 200);
  return {
    page: pageParam(params),
    sorting: [
      { id: (sortFields as readonly string[]).includes(field) ? field : 'createdAt', desc: sortFields.includes(field as never) ? sort.startsWith('-') : true },
    ],
    status: shipmentStatuses.find((known) => known === status) ?? '',
    trackingStatus: trackingStatuses.find((known) => known === trackingStatus) ?? '',
    search: text('search'),
    filters: {
      carrierId: text('carrier'),
      country: /^[A-Z]{2}$/.test(text('country')) ? text('country') : '',
      createdFrom: isDay(params.get('from')) ? (params.get('from') as string) : '',
      createdTo: isDay(params.get('to')) ? (params.get('to') as string) : '',
    },
  };
}

/** The address's query for the list's place: what `fromAddress` reads back. */
export function shipmentListAddress(state: Pick<ShipmentListState, 'page' | 'sorting' | 'status' | 'trackingStatus' | 'search' | 'filters'>): string {
  const sort = sortKey(state.sorting);
  return queryString({
    search: state.search,
    status: state.status,
    tracking: state.trackingStatus,
    carrier: state.filters.carrierId,
    country: state.filters.country,
    from: state.filters.createdFrom,
    to: state.filters.createdTo,
    sort: sort === '-createdAt' ? '' : sort,
    page: state.page === 1 ? '' : state.page,
  });
}

interface ShipmentListState {
  page: number;
  sorting: SortingState;
  status: ShipmentStatus | '';
  trackingStatus: TrackingStatus | '';
  /** What is in the search box; the query uses it after a short pause. */
  search: string;
  filters: ShipmentFilterValues;
  selected: Set<string>;
  /** References of selected rows, for the batch-send results (selection spans pages). */
  references: Map<string, string>;
  columns: VisibilityState;
  setPage(page: number): void;
  setSorting(sorting: SortingState): void;
  setStatus(status: ShipmentStatus | ''): void;
  setTrackingStatus(trackingStatus: TrackingStatus | ''): void;
  setSearch(search: string): void;
  setFilters(filters: ShipmentFilterValues): void;
  /** Takes the list's place from an address (a reload, a link, a step back). */
  applyAddress(params: URLSearchParams): void;
  setSelected(selected: Set<string>, references: Map<string, string>): void;
  setColumns(columns: VisibilityState): void;
}

export const useShipmentList = create<ShipmentListState>()((set) => ({
  // Opened at `#/shipments?…` (a reload), the list starts where the address says.
  ...fromAddress(addressQuery('/shipments') ?? new URLSearchParams()),
  selected: new Set(),
  references: new Map(),
  columns: readColumns(),
  setPage: (page) => set({ page }),
  // A new order, filter or search starts again at the first page.
  setSorting: (sorting) => set({ sorting, page: 1 }),
  setStatus: (status) => set({ status, page: 1 }),
  setTrackingStatus: (trackingStatus) => set({ trackingStatus, page: 1 }),
  setSearch: (search) => set({ search, page: 1 }),
  setFilters: (filters) => set({ filters, page: 1 }),
  applyAddress: (params) => set(fromAddress(params)),
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
