import { create } from 'zustand';
import type { VisibilityState } from '@tanstack/react-table';
import { orderStatuses, type OrderStatus } from '../../../../src-shared/schemas/order';
import { addressQuery, pageParam, queryString } from '../../lib/addressQuery';

/**
 * The orders table's filters, page and columns live outside the screen, so opening an order and
 * coming back finds the list as it was left, search text included; all but the columns are in the
 * address too (`#/orders?search=…&page=2`), so a reload does as well.
 */
interface OrderListState {
  page: number;
  status: OrderStatus | '';
  orderChannelId: string;
  /** What is in the search box now. */
  searchText: string;
  /** What the list was last asked for (the search box, debounced). */
  search: string;
  /** Days (YYYY-MM-DD, this computer's calendar) the orders were created in; '' when not set. */
  createdFrom: string;
  createdTo: string;
  columnVisibility: VisibilityState;
  update(partial: Partial<Omit<OrderListState, 'update'>>): void;
}

type AddressPart = Pick<OrderListState, 'page' | 'status' | 'orderChannelId' | 'searchText' | 'search' | 'createdFrom' | 'createdTo'>;

const day = (value: string | null) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : '');

/** The list's place as the address holds it; anything unknown there is left at its default. */
export function orderListFromAddress(params: URLSearchParams): AddressPart {
  const search = (params.get('search') ?? '').slice(0, 200);
  return {
    page: pageParam(params),
    status: orderStatuses.find((status) => status === params.get('status')) ?? '',
    orderChannelId: (params.get('channel') ?? '').slice(0, 64),
    searchText: search,
    search,
    createdFrom: day(params.get('from')),
    createdTo: day(params.get('to')),
  };
}

/** The address's query for the list's place: what `orderListFromAddress` reads back. */
export function orderListAddress(state: AddressPart): string {
  return queryString({
    search: state.search,
    status: state.status,
    channel: state.orderChannelId,
    from: state.createdFrom,
    to: state.createdTo,
    page: state.page === 1 ? '' : state.page,
  });
}

export const useOrderList = create<OrderListState>()((set) => ({
  // Opened at `#/orders?…` (a reload), the list starts where the address says.
  ...orderListFromAddress(addressQuery('/orders') ?? new URLSearchParams()),
  columnVisibility: {},
  update: (partial) => set(partial),
}));
