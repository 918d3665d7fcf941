import { cloneElement, useEffect, useId, useRef, useState, type ReactElement } from 'react';
import { createColumnHelper } from '@tanstack/react-table';
import { orderStatuses, type OrderSummary } from '../../../../src-shared/schemas/order';
import { useOperation } from '../../lib/useOperation';
import { useOrgId } from '../../lib/session';
import { formatDateTime, humanize } from '../../lib/format';
import { Link, navigate } from '../../app/router';
import { DataTable } from '../../components/DataTable';
import { ErrorNotice } from '../../components/ErrorNotice';
import { StatusBadge } from '../../components/StatusBadge';
import { scanMatch, stripControlCharacters, useScanReader } from '../../lib/scan';
import { orderListAddress, orderListFromAddress, useOrderList } from './listState';
import { dayBounds } from '../../lib/days';
import { useQueryInAddress } from '../../lib/addressQuery';
import { formatMoney } from './money';
import { NewOrderDialog } from './OrderForm';
import { ImportOrdersDialog } from './ImportOrdersDialog';
import { GetNewOrdersDialog } from './GetNewOrdersDialog';
import { storefrontChannels, useStorefrontSync } from './storefrontSync';
import { ReadOnlyNote, useCanWrite } from '../../lib/permissions';
import { PickListDialog } from './PickListDialog';
import type { OrderPaperKind } from '../../../../src-shared/schemas/orderPapers';

const PAGE_SIZE = 50;
const SEARCH_DELAY_MS = 300;

const column = createColumnHelper<OrderSummary>();
const columns = [
  column.accessor('orderNumber', {
    header: 'Order',
    enableHiding: false,
    // The row itself is the keyboard stop (Enter opens it); the link is for the mouse.
    cell: (info) => (
      <Link to={`/orders/${info.row.original.id}`} tabIndex={-1}>
        {info.getValue()}
      </Link>
    ),
  }),
  column.accessor('status', { header: 'Status', cell: (info) => <StatusBadge status={info.getValue()} /> }),
  column.accessor('customerName', { header: 'Customer', cell: (info) => info.getValue() ?? '—' }),
  column.accessor('customerEmail', { header: 'Email', cell: (info) => info.getValue() ?? '—' }),
  column.accessor((order) => order.orderChannel.name, { id: 'channel', header: 'Channel' }),
  column.accessor('shipmentCount', { header: 'Shipments' }),
  column.accessor('totalAmount', { header: 'Total', cell: (info) => formatMoney(info.getValue(), info.row.original.currency) }),
  column.accessor('createdAt', { header: 'Created', cell: (info) => formatDateTime(info.getValue()) }),
];

/** `/orders`: every order of the organization, filtered on the server, newest first. */
export function OrdersScreen() {
  const orgId = useOrgId();
  const list = useOrderList();
  const [creating, setCreating] = useState(false);
  const canWrite = useCanWrite('orders');
  // Ticked rows, kept across pages and filters, for the pick list and packing slips.
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [paper, setPaper] = useState<OrderPaperKind | null>(null);
  const channels = useOperation('orderChannels.list', { params: { orgId }, query: { limit: 100 } });

  const query = {
    page: list.page,
    limit: PAGE_SIZE,
    status: list.status || undefined,
    orderChannelId: list.orderChannelId || undefined,
    search: list.search.trim().slice(0, 200) || undefined,
    ...dayBounds(list.createdFrom, list.createdTo),
  };
  useQueryInAddress('/orders', orderListAddress(list), (params) => list.update(orderListFromAddress(params)));
  const orders = useOperation('orders.list', { params: { orgId }, query });
  const { key } = orders;
  const rows = orders.data?.data ?? [];

  // Orders brought in from a file or a shop show up at once: the list is asked again.
  const [importing, setImporting] = useState(false);
  const [syncing, setSyncing] = useState(false);
  const shops = storefrontChannels(channels.data?.data);
  const sync = useStorefrontSync(orgId, orders.reload);
  const getNewOrders = () => {
    setSyncing(true);
    void sync.start(shops);
  };

  // The search follows typing after a pause; Enter (or a scanner's end of scan) applies it at once.
  const { searchText, search, update } = list;
  useEffect(() => {
    if (searchText === search) return;
    const timer = setTimeout(() => update({ search: searchText, page: 1 }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [searchText, search, update]);

  // Arriving here puts the cursor in the search with its text selected, so a scan replaces it.
  const searchBox = useRef<HTMLInputElement>(null);
  useEffect(() => {
    searchBox.current?.focus();
    searchBox.current?.select();
  }, []);
  const tableBox = useRef<HTMLDivElement>(null);
  const focusFirstRow = () => tableBox.current?.querySelector<HTMLTableRowElement>('tbody tr[data-index="0"]')?.focus();

  // Enter opens the order when the search finds one: the only result, or the one whose number is
  // exactly what was scanned (1001 also finds 10010). The box is emptied on the way, so coming back
  // finds it ready for the next scan.
  const [openFor, setOpenFor] = useState<string | null>(null);
  useEffect(() => {
    if (openFor === null || orders.loading || !orders.data || orders.dataKey !== key) return;
    setOpenFor(null);
    const target = scanMatch(orders.data.data, orders.data.total, openFor, (order) => order.orderNumber);
    if (target) {
      update({ searchText: '', search: '', page: 1 });
      // The address too, so stepping back finds the box empty, ready for the next scan.
      const address = orderListAddress(useOrderList.getState());
      window.history.replaceState(window.history.state, '', `#/orders${address ? `?${address}` : ''}`);
      navigate(`/orders/${encodeURIComponent(target.id)}`);
    } else if (orders.data.data.length > 0) focusFirstRow();
  }, [openFor, orders.loading, orders.data, orders.dataKey, key, update]);
  const scan = useScanReader({
    onScan: (code) => {
      update({ searchText: code, search: code, page: 1 });
      setOpenFor(code);
    },
  });

  return (
    <section aria-labelledby="orders-title">
      <header className="page-header">
        <h1 id="orders-title">Orders</h1>
        {/* Beside the other actions, for anyone who may read orders (printing asks for more). */}
        <div className="actions" style={{ marginLeft: 'auto' }}>
          <button type="button" onClick={() => setPaper('pickList')}>
            Pick list…
          </button>
          <button type="button" onClick={() => setPaper('packingSlips')}>
            Packing slips…
          </button>
        </div>
        {canWrite && (
          <div className="actions">
            {shops.length > 0 && (
              <button type="button" onClick={getNewOrders} disabled={sync.running}>
                {sync.running ? 'Getting new orders…' : 'Get new orders'}
              </button>
            )}
            <button type="button" onClick={() => setImporting(true)}>
              Import CSV…
            </button>
            <button type="button" className="primary" onClick={() => setCreating(true)}>
              New order
            </button>
          </div>
        )}
      </header>
      {!canWrite && <ReadOnlyNote what="orders" />}
      <ErrorNotice error={orders.error} />
      <div ref={tableBox}>
        <DataTable
          label="Orders"
          columns={columns}
          rows={rows}
          getRowId={(order) => order.id}
          total={orders.data?.total ?? 0}
          page={list.page}
          limit={PAGE_SIZE}
          onPageChange={(page) => list.update({ page })}
          columnVisibility={list.columnVisibility}
          onColumnVisibilityChange={(columnVisibility) => list.update({ columnVisibility })}
          onOpen={(order) => navigate(`/orders/${order.id}`)}
          selected={selected}
          onSelectedChange={setSelected}
          rowLabel={(order) => `order ${order.orderNumber}`}
          loading={orders.loading}
          failed={Boolean(orders.error)}
          empty={
            list.search || list.status || list.orderChannelId || list.createdFrom || list.createdTo
              ? 'No order matches these filters.'
              : canWrite
                ? 'No orders yet. Import a CSV file, get them from a shop, or make one with “New order”.'
                : 'No orders yet.'
          }
          toolbar={
            <>
              <ToolbarField label="Search">
                <input
                  ref={searchBox}
                  type="search"
                  value={list.searchText}
                  placeholder="Order number, customer or SKU"
                  onChange={(event) => list.update({ searchText: stripControlCharacters(event.target.value) })}
                  onKeyDown={(event) => {
                    if (event.key === 'ArrowDown') {
                      event.preventDefault();
                      focusFirstRow();
                    } else scan.onKeyDown(event);
                  }}
                  aria-keyshortcuts="Enter ArrowDown"
                />
              </ToolbarField>
              <ToolbarField label="Status">
                <select value={list.status} onChange={(event) => list.update({ status: event.target.value as typeof list.status, page: 1 })}>
                  <option value="">Any status</option>
                  {orderStatuses.map((status) => (
                    <option key={status} value={status}>
                      {humanize(status)}
                    </option>
                  ))}
                </select>
              </ToolbarField>
              <ToolbarField label="Channel">
                <select value={list.orderChannelId} onChange={(event) => list.update({ orderChannelId: event.target.value, page: 1 })}>
                  <option value="">Any channel</option>
                  {channels.data?.data.map((channel) => (
                    <option key={channel.id} value={channel.id}>
                      {channel.name}
                    </option>
                  ))}
                </select>
              </ToolbarField>
              <ToolbarField label="Created from">
                <input
                  type="date"
                  value={list.createdFrom}
                  max={list.createdTo || undefined}
                  onChange={(event) => list.update({ createdFrom: event.target.value, page: 1 })}
                />
              </ToolbarField>
              <ToolbarField label="Created to">
                <input
                  type="date"
                  value={list.createdTo}
                  min={list.createdFrom || undefined}
                  onChange={(event) => list.update({ createdTo: event.target.value, page: 1 })}
                />
              </ToolbarField>
            </>
          }
        />
      </div>
      <ImportOrdersDialog open={importing} onClose={() => setImporting(false)} onImported={orders.reload} channels={channels.data?.data} />
      <PickListDialog kind={paper ?? 'pickList'} open={paper !== null} onClose={() => setPaper(null)} selectedIds={[...selected]} />
      <GetNewOrdersDialog open={syncing} onClose={() => setSyncing(false)} sync={sync} />
      <NewOrderDialog open={creating} onClose={() => setCreating(false)} channels={channels.data?.data} channelsError={channels.error} />
    </section>
  );
}

/** A filter with its label beside it; the label is the control's whole accessible name. */
function ToolbarField({ label, children }: { label: string; children: ReactElement<Record<string, unknown>> }) {
  const id = useId();
  return (
    <div className="toolbar-field">
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id })}
    </div>
  );
}
