/**
 * The papers a shipping rule asks for next to the labels (USERS 8, decisions §8): a packing list, a
 * proforma invoice and a commercial invoice, each one A4 PDF for the whole shipment. What to make is
 * decided with the booking's first transaction, from the shipment's applied rule; the PDFs are made
 * after the carrier has booked (pdf-lib is async, a transaction is not) and written with the labels
 * in the transaction that marks the shipment dispatched.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { documentTypes } from '../../../src-shared/schemas/shipment';
import { orders, shippingRules } from '../../db/schema';
import type { ReadDb } from '../../db/tx';
import { renderInvoice } from '../../documents/invoice';
import { renderPackingList } from '../../documents/packingList';
import type { PaperParty, ShippingPaperData } from '../../documents/paper';
import { toKg } from '../units';
import { printedCompany } from '../../../src-shared/partyCompany';
import type { PartyRow, ShipmentRecord } from './repository';

export type PaperDocumentType = Exclude<(typeof documentTypes)[number], 'label'>;

/** What to make once the carrier has booked: the rule's choice and the shipment as it was sent. */
export interface ShippingDocumentsPlan {
  ruleName: string;
  types: PaperDocumentType[];
  data: Omit<ShippingPaperData, 'trackingNumber' | 'date'>;
}

export interface RenderedShippingDocument {
  documentType: PaperDocumentType;
  content: Buffer;
}

export interface ShippingDocumentsResult {
  documents: RenderedShippingDocument[];
  /** One per paper that could not be made: recorded on the shipment, never a failed booking. */
  errors: { code: 'DOCUMENT_FAILED'; message: string }[];
}

export const NO_SHIPPING_DOCUMENTS: ShippingDocumentsResult = { documents: [], errors: [] };

export const paperNames: Record<PaperDocumentType, string> = {
  packing_list: 'packing list',
  proforma_invoice: 'proforma invoice',
  commercial_invoice: 'commercial invoice',
};

const renderers: Record<PaperDocumentType, (data: ShippingPaperData) => Promise<Buffer>> = {
  packing_list: renderPackingList,
  proforma_invoice: (data) => renderInvoice(data, 'proforma'),
  commercial_invoice: (data) => renderInvoice(data, 'commercial'),
};

function paperParty(party: PartyRow | undefined): PaperParty {
  if (!party) return { name: '', address1: '', postalCode: '', city: '', countryCode: '' };
  return {
    name: party.name,
    attention: party.attention,
    company: printedCompany(party),
    address1: party.address1,
    address2: party.address2,
    postalCode: party.postalCode,
    city: party.city,
    countryCode: party.countryCode,
    phone: party.phone,
    email: party.email,
  };
}

/**
 * The papers the shipment's applied rule asks for, with everything they show, or null when there is no
 * live rule or it asks for none. Runs in the booking's first transaction: the shipment is `processing`
 * from then on and cannot change until the booking is written, so this is what was sent.
 */
export function planShippingDocuments(db: ReadDb, record: ShipmentRecord, carrier: { carrierName: string; productName: string }): ShippingDocumentsPlan | null {
  const { row } = record;
  if (!row.shippingRuleId) return null;
  const rule = db
    .select({
      name: shippingRules.name,
      packingList: shippingRules.generatePackingList,
      proforma: shippingRules.generateProformaInvoice,
      commercial: shippingRules.generateCommercialInvoice,
    })
    .from(shippingRules)
    .where(and(eq(shippingRules.orgId, row.orgId), eq(shippingRules.id, row.shippingRuleId), isNull(shippingRules.deletedAt)))
    .get();
  if (!rule) return null;
  const types: PaperDocumentType[] = [];
  if (rule.packingList) types.push('packing_list');
  if (rule.proforma) types.push('proforma_invoice');
  if (rule.commercial) types.push('commercial_invoice');
  if (types.length === 0) return null;

  const orderNumber = row.orderId ? (db.select({ number: orders.orderNumber }).from(orders).where(eq(orders.id, row.orderId)).get()?.number ?? null) : null;
  return {
    ruleName: rule.name,
    types,
    data: {
      reference: row.reference,
      order: row.orderId ? { id: row.orderId, number: orderNumber } : null,
      carrierName: carrier.carrierName,
      productName: carrier.productName,
      termOfTrade: row.termOfTrade,
      isReturn: row.returnForShipmentId !== null,
      sender: paperParty(record.parties.find((party) => party.type === 'sender')),
      receiver: paperParty(record.parties.find((party) => party.type === 'receiver')),
      parcels: record.parcels.map((parcel) => ({
        weightKg: toKg(parcel.weight, parcel.weightUnit),
        length: parcel.length,
        width: parcel.width,
        height: parcel.height,
        lines: parcel.lines.map((line) => ({
          sku: line.sku,
          description: line.description,
          quantity: line.quantity,
          unitPrice: line.unitPrice,
          currency: line.currency,
          countryOfOrigin: line.countryOfOrigin,
          tarrifNumber: line.tarrifNumber,
          location: line.location,
        })),
      })),
    },
  };
}

/**
 * Makes every planned paper, each on its own: one that fails (a renderer bug, a document too large) is
 * a DOCUMENT_FAILED entry and the others are still made. Never throws — the carrier has booked, and a
 * booking is never lost over a piece of paper.
 */
export async function renderShippingDocuments(
  plan: ShippingDocumentsPlan | null,
  booked: { trackingNumber: string; now: Date },
): Promise<ShippingDocumentsResult> {
  if (!plan) return NO_SHIPPING_DOCUMENTS;
  const data: ShippingPaperData = { ...plan.data, trackingNumber: booked.trackingNumber, date: booked.now.toISOString() };
  const result: ShippingDocumentsResult = { documents: [], errors: [] };
  for (const documentType of plan.types) {
    try {
      result.documents.push({ documentType, content: await renderers[documentType](data) });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      result.errors.push({
        code: 'DOCUMENT_FAILED',
        message: `Rule ${plan.ruleName} asks for a ${paperNames[documentType]}, but it could not be made: ${reason}. The shipment was booked and dispatched without it.`,
      });
    }
  }
  return result;
}
