/**
 * The customs declaration of a shipment that leaves its sender's customs territory (issue 21): built
 * once from the shipment's parcel lines, so the carrier, the invoice and the CN22/CN23 show the same
 * values.
 */
import { eq } from 'drizzle-orm';
import type { CustomsDeclaration, CustomsLine, ExportReason } from '../../carriers/adapter';
import { orgs, senderAddresses } from '../../db/schema';
import type { ReadDb } from '../../db/tx';
import { invoiceNumber } from '../../documents/invoice';
import { formatDate } from '../../documents/label';
import type { ShipmentRecord } from '../shipments/repository';
import { crossesCustomsBorder } from './territory';

const EXPORT_REASONS: readonly ExportReason[] = ['sale', 'gift', 'sample', 'return', 'repair', 'documents', 'other'];

/** The shipment's own `additionalParameters.exportReason` when it names one; a return is a return; else a sale. */
function exportReasonOf(record: ShipmentRecord): ExportReason {
  const given = record.row.additionalParameters['exportReason'];
  if (typeof given === 'string' && (EXPORT_REASONS as readonly string[]).includes(given)) return given as ExportReason;
  return record.row.returnForShipmentId !== null || record.row.type === 'inbound' ? 'return' : 'sale';
}

/** An HS code as customs systems take it: its digits only ("6912.00" is 691200). */
export const hsDigits = (raw: string | null): string => (raw ?? '').replace(/[\s.]/g, '');

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** The exporter's EORI and VAT numbers: the sender address's `customs` first, then the organization's. */
export function exporterOf(db: ReadDb, record: ShipmentRecord): CustomsDeclaration['exporter'] {
  const org = db.select({ eori: orgs.eoriNumber, vat: orgs.vatNumber }).from(orgs).where(eq(orgs.id, record.row.orgId)).get();
  const address = db.select({ customs: senderAddresses.customs }).from(senderAddresses).where(eq(senderAddresses.id, record.row.senderAddressId)).get();
  const own = (address?.customs ?? {}) as Record<string, unknown>;
  return {
    eoriNumber: text(own['eoriNumber']) ?? text(org?.eori) ?? null,
    vatNumber: text(own['vatNumber']) ?? text(org?.vat) ?? null,
  };
}

/** True when the shipment's receiver is outside its sender's customs territory. */
export function isExport(record: ShipmentRecord): boolean {
  const sender = record.parties.find((party) => party.type === 'sender');
  const receiver = record.parties.find((party) => party.type === 'receiver');
  if (!sender || !receiver) return false;
  return crossesCustomsBorder(sender, receiver);
}

/**
 * The declaration, or null when the shipment stays inside its customs territory. Values missing from
 * a line are left empty here; the send's completeness check lists them before any carrier is called.
 */
export function customsDeclarationOf(db: ReadDb, record: ShipmentRecord, now: Date): CustomsDeclaration | null {
  if (!isExport(record)) return null;
  const lines: CustomsLine[] = record.parcels.flatMap((parcel) =>
    parcel.lines.map((line) => ({
      parcelId: parcel.id,
      sku: line.sku,
      description: line.description ?? '',
      quantity: line.quantity,
      unitPrice: line.unitPrice ?? 0,
      currency: line.currency ?? '',
      unitWeightKg: line.unitWeightKg ?? 0,
      tarrifNumber: hsDigits(line.tarrifNumber),
      countryOfOrigin: line.countryOfOrigin ?? '',
    })),
  );
  const totalCents = lines.reduce((sum, line) => sum + Math.round(line.unitPrice * 100) * line.quantity, 0);
  const reason = exportReasonOf(record);
  // Goods not sold are declared on a proforma invoice (USERS 8); a sale on the commercial one.
  const invoiceKind = reason === 'sale' ? 'commercial' : 'proforma';
  return {
    exportReason: reason,
    invoiceNumber: invoiceNumber(invoiceKind, record.row.reference),
    // The warehouse's own date, as every paper made here prints it.
    invoiceDate: formatDate(now.toISOString()),
    invoiceKind,
    currency: lines[0]?.currency ?? '',
    totalValue: totalCents / 100,
    exporter: exporterOf(db, record),
    lines,
    invoice: null,
  };
}
