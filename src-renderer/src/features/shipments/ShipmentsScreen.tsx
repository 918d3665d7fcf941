import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { shipmentStatuses, trackingStatuses, type ShipmentListItem, type ShipmentStatus, type TrackingStatus } from '../../../../src-shared/schemas/shipment';
import { useOperation } from '../../lib/useOperation';
import { useOrgId } from '../../lib/session';
import { humanize } from '../../lib/format';
import { navigate } from '../../app/router';
import { DataTable } from '../../components/DataTable';
import { ErrorNotice } from '../../components/ErrorNotice';
import { shipmentColumns } from './columns';
import { optionalColumnsShown, shipmentListAddress, sortKey, useShipmentList } from './listState';
import { ShipmentFilters } from './ShipmentFilters';
import { dayBounds } from '../../lib/days';
import { useQueryInAddress } from '../../lib/addressQuery';
import { client } from '../../lib/api';
import { useDebounced } from './useDebounced';
import { useBatchSend } from './batchSend';
import { BatchSendDialog } from './BatchSendDialog';
import { BulkActionsBar } from './BulkActionsBar';
import { scanMatch, stripControlCharacters, useScanReader } from '../../lib/scan';
import { Link } from '../../app/router';
import { useProductNames } from './productNames';
import { trackingStatusNames } from './tracking';
import { ReadOnlyNote, useCanWrite } from '../../lib/permissions';
import { useCarrierCatalogue } from '../../components/TestModeBadge';
import { inTestMode } from '../../lib/carrierTestMode';
import { EndOfDayButton } from '../closeOuts/EndOfDayButton';

const PAGE_SIZE = 50;

const openShipment = (id: string) => navigate(`/shipments/${encodeURIComponent(id)}`);

/**
 * Opens the shipment a scan or a search led to, with the search box emptied, in the address too,
 * so stepping back finds the list ready for the next scan rather than showing that search again.
 */
function openFoundShipment(id: string) {
  const list = useShipmentList.getState();
  list.setSearch('');
  window.history.replaceState(window.history.state, '', `#/shipments?${shipmentListAddress(useShipmentList.getState())}`.replace(/\?$/, ''));
  openShipment(id);
}

/** The shipments table: server-side pages, sort, filters and search, kept in the address; batch send. */
export function ShipmentsScreen() {
  const orgId = useOrgId();
  const list = useShipmentList();
  const debounced = useDebounced(list.search.trim(), 300);
  // Enter in the search box searches at once (a scanner ends with Enter) and opens a single match.
  const [committed, setCommitted] = useState(debounced);
  const [openSingle, setOpenSingle] = useState<string | null>(null);
  useEffect(() => setCommitted(debounced), [debounced]);

  const query = {
    page: list.page,
    limit: PAGE_SIZE,
    sort: sortKey(list.sorting),
    status: list.status || undefined,
    trackingStatus: list.trackingStatus ? [list.trackingStatus] : undefined,
    search: committed || undefined,
    carrierId: list.filters.carrierId || undefined,
    country: list.filters.country || undefined,
    ...dayBounds(list.filters.createdFrom, list.filters.createdTo),
  };
  useQueryInAddress('/shipments', shipmentListAddress(list), list.applyAddress);
  // Through the read cache: a shipment sent or cancelled anywhere (another station, a script) reads the page again.
  const shipments = useOperation('shipments.list', { params: { orgId }, query });
  const { key } = shipments;
  const carriers = useOperation('carriers.list', { params: { orgId }, query: { limit: 100 } });
  const carrierNames = useMemo(() => new Map((carriers.data?.data ?? []).map((carrier) => [carrier.id, carrier.name])), [carriers.data]);
  const productNames = useProductNames(orgId, carriers.data?.data);
  const catalogue = useCarrierCatalogue();
  const testCarrierIds = useMemo(
    () => new Set((carriers.data?.data ?? []).filter((carrier) => inTestMode(carrier, catalogue.data)).map((carrier) => carrier.id)),
    [carriers.data, catalogue.data],
  );
  const columns = useMemo(() => shipmentColumns(carrierNames, productNames, testCarrierIds), [carrierNames, productNames, testCarrierIds]);
  const rows = shipments.data?.data ?? [];

  // Arriving here puts the cursor in the search with its text selected, so a scan replaces it.
  const searchBox = useRef<HTMLInputElement>(null);
  useEffect(() => {
    searchBox.current?.focus();
    searchBox.current?.select();
  }, []);
  const tableBox = useRef<HTMLDivElement>(null);
  const focusFirstRow = () => tableBox.current?.querySelector<HTMLTableRowElement>('tbody tr[data-index="0"]')?.focus();

  // Enter opens the shipment a search leads to: the only one found, or the one whose reference is
  // exactly the scanned code (SHP-000001 also finds its splits SHP-000001-2 and its return). The box is
  // emptied on the way, so coming back finds it ready for the next scan rather than appending to it.
  const { setSearch } = list;
  useEffect(() => {
    if (openSingle === null || shipments.loading || !shipments.data || shipments.dataKey !== key) return;
    setOpenSingle(null);
    const found = shipments.data.data;
    const target = scanMatch(found, shipments.data.total, openSingle, (shipment) => shipment.reference);
    if (target) openFoundShipment(target.id);
    else if (found.length > 0) focusFirstRow();
  }, [openSingle, shipments.loading, shipments.data, shipments.dataKey, key]);

  // A barcode from a label (a tracking number, a parcel's own number) is exactly one shipment's:
  // `code=` finds it on an index, whatever the filters; anything else goes on as a search.
  const scan = useScanReader({
    onScan: (code) => {
      setSearch(code);
      setCommitted(code);
      client
        .call('shipments.list', { params: { orgId }, query: { code, limit: 2 } })
        .then((found) => (found.total === 1 && found.data[0] ? openFoundShipment(found.data[0].id) : setOpenSingle(code)))
        .catch(() => setOpenSingle(code));
    },
  });
  const onSearchKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      focusFirstRow();
    } else scan.onKeyDown(event);
  };

  const batch = useBatchSend(orgId);
  const [batchOpen, setBatchOpen] = useState(false);
  // A viewer sees the list without the ways to change it (no selection to send, no new shipment).
  const canWrite = useCanWrite('shipments');
  const selection = [...list.selected].map((id) => ({ id, reference: list.references.get(id) ?? id }));
  const closeBatch = () => {
    setBatchOpen(false);
    if (!batch.running && batch.total > 0) {
      // Keep the failed ones selected so they can be fixed and sent again; the sent ones are done.
      const failed = new Set(batch.outcomes.filter((outcome) => outcome.status === 'failed').map((outcome) => outcome.shipmentId));
      list.setSelected(failed, list.references);
      batch.reset();
      shipments.reload();
    }
  };

  const onSelectedChange = (next: Set<string>) => {
    const references = new Map(list.references);
    for (const row of rows) references.set(row.id, row.reference);
    list.setSelected(next, references);
  };

  return (
    <section aria-labelledby="shipments-title">
      <header className="page-header">
        <h1 id="shipments-title">Shipments</h1>
        <div className="actions">
          <Link to="/shipments/pickups" className="header-link">
            Pickups
          </Link>
          <EndOfDayButton />
          {canWrite && (
            <>
              {batch.running && !batchOpen ? (
                <button type="button" onClick={() => setBatchOpen(true)}>
                  Sending {batch.done} of {batch.total}…
                </button>
              ) : (
                <button type="button" disabled={list.selected.size === 0} onClick={() => setBatchOpen(true)}>
                  Send selected ({list.selected.size})
                </button>
              )}
              <button type="button" className="primary" onClick={() => navigate('/shipments/new')}>
                New shipment
              </button>
            </>
          )}
        </div>
      </header>
      {!canWrite && <ReadOnlyNote what="shipments" />}
      {canWrite && (
        <BulkActionsBar
          orgId={orgId}
          selection={selection}
          onFinished={(keep, changed) => {
            list.setSelected(keep, list.references);
            if (changed) shipments.reload();
          }}
        />
      )}
      <ErrorNotice error={shipments.error} title="The shipments could not be loaded" />
      <div ref={tableBox} className="shipments-list">
        <DataTable<ShipmentListItem>
          label="Shipments"
          columns={columns}
          rows={rows}
          getRowId={(row) => row.id}
          rowLabel={(shipment) => `shipment ${shipment.reference}`}
          total={shipments.data?.total ?? 0}
          page={list.page}
          limit={PAGE_SIZE}
          onPageChange={list.setPage}
          sorting={list.sorting}
          onSortingChange={list.setSorting}
          columnVisibility={list.columns}
          onColumnVisibilityChange={list.setColumns}
          onOpen={(row) => openShipment(row.id)}
          fit={!optionalColumnsShown(list.columns)}
          selected={canWrite ? list.selected : undefined}
          onSelectedChange={canWrite ? onSelectedChange : undefined}
          loading={shipments.loading}
          failed={Boolean(shipments.error)}
          empty={
            committed ? (
              <>
                No shipment’s reference, order number, receiver or tracking number contains “{committed}”
                {list.status || list.trackingStatus || Object.values(list.filters).some(Boolean) ? ' with these filters' : ''}. An order not yet shipped? Find
                it under <Link to="/orders">Orders</Link>, or scan it on <Link to="/pack">Pack</Link>.
              </>
            ) : list.status || list.trackingStatus || Object.values(list.filters).some(Boolean) ? (
              'No shipment matches.'
            ) : canWrite ? (
              'No shipments yet. Create one with “New shipment”.'
            ) : (
              'No shipments yet.'
            )
          }
          toolbar={
            <>
              <label className="inline-field">
                Status{' '}
                <select value={list.status} onChange={(event) => list.setStatus(event.target.value as ShipmentStatus | '')}>
                  <option value="">All</option>
                  {shipmentStatuses.map((status) => (
                    <option key={status} value={status}>
                      {humanize(status)}
                    </option>
                  ))}
                </select>
              </label>
              <label className="inline-field">
                Tracking{' '}
                <select value={list.trackingStatus} onChange={(event) => list.setTrackingStatus(event.target.value as TrackingStatus | '')}>
                  <option value="">All</option>
                  {trackingStatuses.map((status) => (
                    <option key={status} value={status}>
                      {trackingStatusNames[status]}
                    </option>
                  ))}
                </select>
              </label>
              <label className="inline-field">
                Search{' '}
                <input
                  ref={searchBox}
                  type="search"
                  // The visible label's word first: what the search looks in, for a screen reader.
                  aria-label="Search references, order numbers, receivers and tracking numbers"
                  value={list.search}
                  onChange={(event) => list.setSearch(stripControlCharacters(event.target.value))}
                  onKeyDown={onSearchKey}
                  placeholder="Type or scan"
                  aria-keyshortcuts="Enter ArrowDown"
                />
              </label>
              <ShipmentFilters value={list.filters} onChange={list.setFilters} carriers={carriers.data?.data} />
              {shipments.loading && <span className="muted">Loading…</span>}
            </>
          }
        />
      </div>
      <BatchSendDialog open={batchOpen} onClose={closeBatch} selection={selection} batch={batch} />
    </section>
  );
}
