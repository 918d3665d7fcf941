import { create } from 'zustand';
import type { VisibilityState } from '@tanstack/react-table';
import type { OrderStatus } from '../../../../src-shared/schemas/order';

/**
 * The orders table's filters, page and columns live outside the screen, so opening an order and
 * coming back finds the list as it was left, search text included.
 */
interface OrderListState {
  page: number;
  status: OrderStatus | '';
  orderChannelId: string;
  /** What is in the search box now. */
  searchText: string;
  /** What the list was last asked for (the search box, debounced). */
  search: string;
  columnVisibility: VisibilityState;
  update(partial: Partial<Omit<OrderListState, 'update'>>): void;
}

export const useOrderList = create<OrderListState>()((set) => ({
  page: 1,
  status: '',
  orderChannelId: '',
  searchText: '',
  search: '',
  columnVisibility: {},
  update: (partial) => set(partial),
}));
