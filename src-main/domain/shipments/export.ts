/**
 * POST /shipments/export: the chosen shipments as CSV (issue 20), one row each in the order of the
 * ids, under a header of the documented columns (exportColumns). A read: ids not found in the
 * organization (deleted since they were chosen) are left out rather than failing the file.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { exportColumns, type ExportColumn } from '../../../src-shared/schemas/bulk';
import { kgPerWeightUnit, type WeightUnit } from '../../../src-shared/schemas/shipment';
import { COMPANY_ATTRIBUTE } from '../../../src-shared/partyCompany';
import { carriers, orders, shipments, shippingRules } from '../../db/schema';
import type { ReadDb } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import type { BinaryResult } from '../../app/kernel/handler';
import { loadShipmentRecords, type ShipmentRecord } from './repository';

export function exportShipments(app: AppContext, orgId: string, shipmentIds: readonly string[]): BinaryResult {
  const rows = app.db
    .select()
    .from(shipments)
    .where(and(eq(shipments.orgId, orgId), sql`${shipments.id} IN (SELECT value FROM json_each(${JSON.stringify(shipmentIds)}))`))
    .all();
  const byId = new Map(loadShipmentRecords(app.db, rows).map((record) => [record.row.id, record]));
  const records = shipmentIds.map((id) => byId.get(id)).filter((record): record is ShipmentRecord => record !== undefined);
  const names = namesOf(app.db, orgId, records);
  const lines = [exportColumns.join(','), ...records.map((record) => exportColumns.map((column) => csvCell(cellOf(record, column, names))).join(','))];
  return {
    contentType: 'text/csv; charset=utf-8',
    // CRLF as RFC 4180 has it; spreadsheets read either.
    data: Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8'),
    filename: `shipments-${app.now().toISOString().slice(0, 10)}.csv`,
  };
}

interface Names {
  carriers: Map<string, string>;
  rules: Map<string, string>;
  orders: Map<string, string>;
}

/** Carrier, rule and order names in three queries, deleted carriers and rules included (old shipments keep them). */
function namesOf(db: ReadDb, orgId: string, records: readonly ShipmentRecord[]): Names {
  const ids = (pick: (record: ShipmentRecord) => string | null) => [...new Set(records.map(pick).filter((id): id is string => id !== null))];
  const ruleIds = ids((record) => record.row.shippingRuleId);
  const orderIds = ids((record) => record.row.orderId);
  return {
    carriers: new Map(
      db
        .select({ id: carriers.id, name: carriers.name })
        .from(carriers)
        .where(eq(carriers.orgId, orgId))
        .all()
        .map((row) => [row.id, row.name]),
    ),
    rules: new Map(
      ruleIds.length
        ? db
            .select({ id: shippingRules.id, name: shippingRules.name })
            .from(shippingRules)
            .where(inArray(shippingRules.id, ruleIds))
            .all()
            .map((row) => [row.id, row.name])
        : [],
    ),
    orders: new Map(
      orderIds.length
        ? db
            .select({ id: orders.id, orderNumber: orders.orderNumber })
            .from(orders)
            .where(inArray(orders.id, orderIds))
            .all()
            .map((row) => [row.id, row.orderNumber])
        : [],
    ),
  };
}

function cellOf({ row, parties, parcels }: ShipmentRecord, column: ExportColumn, names: Names): string {
  const receiver = parties.find((party) => party.type === 'receiver');
  switch (column) {
    case 'reference':
      return row.reference;
    case 'status':
      return row.status;
    case 'type':
      return row.type;
    case 'createdAt':
      return row.createdAt;
    case 'carrier':
      return names.carriers.get(row.carrierId) ?? row.carrierId;
    case 'product':
      return row.productId;
    case 'shippingRule':
      return row.shippingRuleId ? (names.rules.get(row.shippingRuleId) ?? '') : '';
    case 'orderNumber':
      return row.orderId ? (names.orders.get(row.orderId) ?? '') : '';
    case 'receiverName':
      return receiver?.name ?? '';
    case 'receiverCompany':
      return receiver?.attributes.find((attribute) => attribute.name === COMPANY_ATTRIBUTE)?.value ?? '';
    case 'receiverAddress1':
      return receiver?.address1 ?? '';
    case 'receiverPostalCode':
      return receiver?.postalCode ?? '';
    case 'receiverCity':
      return receiver?.city ?? '';
    case 'receiverCountryCode':
      return receiver?.countryCode ?? '';
    case 'receiverEmail':
      return receiver?.email ?? '';
    case 'parcels':
      return String(parcels.length);
    case 'weightKg': {
      const kg = parcels.reduce((sum, parcel) => sum + parcel.weight * (kgPerWeightUnit[parcel.weightUnit as WeightUnit] ?? 1), 0);
      return String(Math.round(kg * 1000) / 1000);
    }
    case 'trackingNumber':
      return row.trackingNumber ?? '';
    // Before a booking there is nothing to track: empty, not "pending".
    case 'trackingStatus':
      return row.trackingNumber ? (row.trackingStatus ?? 'pending') : '';
    case 'trackingUrl':
      return row.trackingUrl ?? '';
    case 'id':
      return row.id;
  }
}

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. Text that a spreadsheet
 * would run as a formula (=, +, -, @, tab, CR first: a receiver name from a shop is anyone's text) gets
 * a leading apostrophe, OWASP's advice against CSV injection.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
