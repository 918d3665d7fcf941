import { createColumnHelper } from '@tanstack/react-table';
import type { ShipmentListItem } from '../../../../src-shared/schemas/shipment';
import { StatusBadge } from '../../components/StatusBadge';
import { formatDateTime, humanize } from '../../lib/format';
import { Link } from '../../app/router';

const column = createColumnHelper<ShipmentListItem>();

/** The shipments table's columns; the ids of sortable ones are the list operation's sort fields. */
export function shipmentColumns(carrierNames: ReadonlyMap<string, string>) {
  return [
    column.accessor('reference', {
      header: 'Reference',
      enableHiding: false,
      // A link too, so a mouse user can open it; keyboard users press Enter on the row.
      cell: (info) => (
        <Link to={`/shipments/${encodeURIComponent(info.row.original.id)}`} tabIndex={-1}>
          {info.getValue()}
        </Link>
      ),
    }),
    column.accessor('status', { header: 'Status', cell: (info) => <StatusBadge status={info.getValue()} /> }),
    column.accessor('type', { header: 'Type', enableSorting: false, cell: (info) => humanize(info.getValue()) }),
    // The name is looked up when the cell renders: TanStack caches accessor values per row.
    column.accessor((row) => row.carrierSettings.carrierId, {
      id: 'carrier',
      header: 'Carrier',
      enableSorting: false,
      cell: (info) => carrierNames.get(info.getValue()) ?? info.getValue(),
    }),
    column.accessor((row) => row.carrierSettings.productId, { id: 'product', header: 'Product', enableSorting: false }),
    column.accessor((row) => row.senderAddress.name, { id: 'sender', header: 'Sender address', enableSorting: false }),
    column.accessor('createdAt', { header: 'Created', cell: (info) => formatDateTime(info.getValue()) }),
    column.accessor('updatedAt', { header: 'Updated', cell: (info) => formatDateTime(info.getValue()) }),
  ];
}
