import { createColumnHelper } from '@tanstack/react-table';
import type { ShipmentListItem } from '../../../../src-shared/schemas/shipment';
import { StatusBadge } from '../../components/StatusBadge';
import { DateCell, Truncated } from '../../components/cells';
import { humanize } from '../../lib/format';
import { Link } from '../../app/router';
import { productName, type ProductNames } from './productNames';
import { TrackingBadge } from './tracking';
import { TestBadge } from '../../components/TestModeBadge';

const column = createColumnHelper<ShipmentListItem>();

/**
 * The shipments table's columns; the ids of sortable ones are the list operation's sort fields.
 * Long names are cut at the column's width (the whole name in the tooltip) and dates are short, so
 * every column fits a 1024 px window without scrolling sideways: the table is laid out to fit
 * (DataTable `fit`), the `.col-…` classes (styles.css, narrower below 1200 px) fix the narrow columns'
 * widths and the names share the rest.
 */
export function shipmentColumns(carrierNames: ReadonlyMap<string, string>, productNames: ProductNames, testCarrierIds: ReadonlySet<string> = new Set()) {
  return [
    column.accessor('reference', {
      header: 'Reference',
      enableHiding: false,
      meta: { className: 'col-reference' },
      // A link too, so a mouse user can open it; keyboard users press Enter on the row.
      cell: (info) => (
        <Truncated text={info.getValue()}>
          <Link to={`/shipments/${encodeURIComponent(info.row.original.id)}`} tabIndex={-1}>
            {info.getValue()}
          </Link>
        </Truncated>
      ),
    }),
    column.accessor('status', { header: 'Status', meta: { className: 'col-status' }, cell: (info) => <StatusBadge status={info.getValue()} /> }),
    // What the carrier last said (decisions §13); empty until the shipment is booked.
    column.accessor('trackingStatus', {
      id: 'tracking',
      header: 'Tracking',
      enableSorting: false,
      meta: { className: 'col-status' },
      cell: (info) => {
        const value = info.getValue();
        return value ? <TrackingBadge status={value} /> : <span className="muted">—</span>;
      },
    }),
    column.accessor('type', { header: 'Type', enableSorting: false, meta: { className: 'col-type' }, cell: (info) => humanize(info.getValue()) }),
    // The name is looked up when the cell renders: TanStack caches accessor values per row.
    column.accessor((row) => row.carrierSettings.carrierId, {
      id: 'carrier',
      header: 'Carrier',
      enableSorting: false,
      // TEST beside a carrier booking in its sandbox (decisions §13), so no test label is packed as real.
      cell: (info) => (
        <>
          {testCarrierIds.has(info.getValue()) && <TestBadge />} <Truncated text={carrierNames.get(info.getValue()) ?? info.getValue()} />
        </>
      ),
    }),
    column.accessor((row) => row.carrierSettings.productId, {
      id: 'product',
      header: 'Product',
      enableSorting: false,
      meta: { className: 'col-product' },
      // The product's name, as the shipment page shows it; the id while the names load.
      cell: (info) => <Truncated text={productName(productNames, info.row.original.carrierSettings.carrierId, info.getValue())} />,
    }),
    column.accessor((row) => row.senderAddress.name, {
      id: 'sender',
      header: 'Sender address',
      enableSorting: false,
      cell: (info) => <Truncated text={info.getValue()} />,
    }),
    // Optional columns (hidden until chosen in "Columns"): the list item carries these values.
    column.accessor('receiverName', { id: 'receiver', header: 'Receiver', enableSorting: false, cell: (info) => <Truncated text={info.getValue() ?? ''} /> }),
    column.accessor('receiverCountryCode', {
      id: 'country',
      header: 'Country',
      enableSorting: false,
      meta: { className: 'col-country' },
      cell: (info) => info.getValue() ?? <span className="muted">—</span>,
    }),
    column.accessor('orderNumber', {
      id: 'orderNumber',
      header: 'Order',
      enableSorting: false,
      cell: (info) => <Truncated text={info.getValue() ?? ''} />,
    }),
    column.accessor('trackingNumber', {
      id: 'trackingNumber',
      header: 'Tracking number',
      enableSorting: false,
      cell: (info) => <Truncated text={info.getValue() ?? ''} />,
    }),
    column.accessor('createdAt', { header: 'Created', meta: { className: 'col-date' }, cell: (info) => <DateCell iso={info.getValue()} /> }),
    column.accessor('updatedAt', { header: 'Updated', meta: { className: 'col-date' }, cell: (info) => <DateCell iso={info.getValue()} /> }),
  ];
}
