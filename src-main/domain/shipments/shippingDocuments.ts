/**
 * The papers a shipment gets next to the labels (USERS 8, decisions §8): a packing list, a proforma
 * invoice and a commercial invoice when its rule asks, the customs invoice when the carrier takes it
 * electronically (paperless trade), and a CN22 or CN23 for an export with a postal product (issue 21).
 * What to make is decided with the booking's first transaction; the PDFs are made after the carrier
 * has booked (pdf-lib is async, a transaction is not), except a paperless invoice, made just before
 * the call, and written with the labels in the transaction that marks the shipment dispatched. An
 * export's papers show the values of its customs declaration, so they agree with the carrier's.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { documentTypes } from '../../../src-shared/schemas/shipment';
import type { CustomsDeclaration } from '../../carriers/adapter';
import { renderCn22, renderCn23 } from '../../documents/postalCustomsForm';
import { hsDigits } from '../customs/declaration';
import { postalFormFor } from '../../carriers/postalForm';
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
  /** The applied rule's name, when a rule asks for papers. */
  ruleName: string | null;
  types: PaperDocumentType[];
  /** Who asks for each paper, in words for an error entry: "Rule Export asks for", "This export needs". */
  askedBy: Partial<Record<PaperDocumentType, string>>;
  /** The customs invoice the carrier takes electronically, made before its call (issue 21). */
  paperlessInvoice: 'commercial_invoice' | 'proforma_invoice' | null;
  data: Omit<ShippingPaperData, 'trackingNumber' | 'date'>;
}

/** The export side of a booking: its declaration, whether the product is postal, whether the carrier takes the invoice. */
export interface CustomsPapers {
  declaration: CustomsDeclaration;
  postal: boolean;
  paperless: boolean;
  /** The carrier takes no customs data: the invoice must travel printed. */
  onPaper: boolean;
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

export interface PaperlessInvoice {
  documentType: 'commercial_invoice' | 'proforma_invoice';
  content: Buffer;
}

export const NO_SHIPPING_DOCUMENTS: ShippingDocumentsResult = { documents: [], errors: [] };

export const paperNames: Record<PaperDocumentType, string> = {
  packing_list: 'packing list',
  proforma_invoice: 'proforma invoice',
  commercial_invoice: 'commercial invoice',
  cn22: 'CN22 customs declaration',
  cn23: 'CN23 customs declaration',
};

const renderers: Record<PaperDocumentType, (data: ShippingPaperData) => Promise<Buffer>> = {
  packing_list: renderPackingList,
  proforma_invoice: (data) => renderInvoice(data, 'proforma'),
  commercial_invoice: (data) => renderInvoice(data, 'commercial'),
  cn22: renderCn22,
  cn23: renderCn23,
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
 * The papers the shipment's applied rule asks for, and those its export needs, with everything they
 * show, or null when there are none. Runs in the booking's first transaction: the shipment is
 * `processing` from then on and cannot change until the booking is written, so this is what was sent.
 */
export function planShippingDocuments(
  db: ReadDb,
  record: ShipmentRecord,
  carrier: { carrierName: string; productName: string },
  customs: CustomsPapers | null = null,
): ShippingDocumentsPlan | null {
  const { row } = record;
  const rule = row.shippingRuleId
    ? db
        .select({
          name: shippingRules.name,
          packingList: shippingRules.generatePackingList,
          proforma: shippingRules.generateProformaInvoice,
          commercial: shippingRules.generateCommercialInvoice,
        })
        .from(shippingRules)
        .where(and(eq(shippingRules.orgId, row.orgId), eq(shippingRules.id, row.shippingRuleId), isNull(shippingRules.deletedAt)))
        .get()
    : undefined;
  const types: PaperDocumentType[] = [];
  const askedBy: ShippingDocumentsPlan['askedBy'] = {};
  const ask = (type: PaperDocumentType, who: string) => {
    if (types.includes(type)) return;
    types.push(type);
    askedBy[type] = who;
  };
  if (rule?.packingList) ask('packing_list', `Rule ${rule.name} asks for`);
  if (rule?.proforma) ask('proforma_invoice', `Rule ${rule.name} asks for`);
  if (rule?.commercial) ask('commercial_invoice', `Rule ${rule.name} asks for`);
  let paperlessInvoice: ShippingDocumentsPlan['paperlessInvoice'] = null;
  if (customs) {
    const invoiceType = customs.declaration.invoiceKind === 'commercial' ? 'commercial_invoice' : 'proforma_invoice';
    if (customs.paperless) {
      paperlessInvoice = invoiceType;
      ask(invoiceType, `${carrier.carrierName} takes electronically (paperless trade)`);
    }
    if (customs.onPaper) ask(invoiceType, `${carrier.carrierName} takes no customs data with the booking, so this export needs`);
    if (customs.postal) ask(postalFormFor(customs.declaration), `This export by a postal product needs`);
  }
  if (types.length === 0) return null;

  const orderNumber = row.orderId ? (db.select({ number: orders.orderNumber }).from(orders).where(eq(orders.id, row.orderId)).get()?.number ?? null) : null;
  const declaration = customs?.declaration ?? null;
  return {
    ruleName: rule?.name ?? null,
    types,
    askedBy,
    paperlessInvoice,
    data: {
      reference: row.reference,
      order: row.orderId ? { id: row.orderId, number: orderNumber } : null,
      carrierName: carrier.carrierName,
      productName: carrier.productName,
      termOfTrade: row.termOfTrade,
      isReturn: row.returnForShipmentId !== null,
      sender: paperParty(record.parties.find((party) => party.type === 'sender')),
      receiver: paperParty(record.parties.find((party) => party.type === 'receiver')),
      customs: declaration
        ? {
            invoiceNumber: declaration.invoiceNumber,
            invoiceDate: declaration.invoiceDate,
            exportReason: declaration.exportReason,
            currency: declaration.currency,
            totalValue: declaration.totalValue,
            exporter: declaration.exporter,
          }
        : null,
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
          // An export's papers show the HS code as it is declared (digits only).
          tarrifNumber: declaration ? hsDigits(line.tarrifNumber) : line.tarrifNumber,
          location: line.location,
          unitWeightKg: line.unitWeightKg,
        })),
      })),
    },
  };
}

/** What a paper that failed tells the user: who asked for it and what happened. */
export function paperProblem(plan: ShippingDocumentsPlan | null, documentType: PaperDocumentType, what: string): string {
  const who = plan?.askedBy[documentType] ?? 'The shipment asks for';
  return `${who} a ${paperNames[documentType]}${what}. The shipment was booked and dispatched without it.`;
}

/**
 * The customs invoice a carrier takes electronically, made before its call. One that cannot be made
 * is an error entry and the booking goes on without it (the papers then travel printed).
 */
export async function renderPaperlessInvoice(
  plan: ShippingDocumentsPlan | null,
  now: Date,
): Promise<{ invoice: PaperlessInvoice | null; errors: ShippingDocumentsResult['errors'] }> {
  if (!plan?.paperlessInvoice) return { invoice: null, errors: [] };
  const documentType = plan.paperlessInvoice;
  try {
    // Not booked yet: no tracking number to show.
    const content = await renderers[documentType]({ ...plan.data, trackingNumber: '', date: now.toISOString() });
    return { invoice: { documentType, content }, errors: [] };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { invoice: null, errors: [{ code: 'DOCUMENT_FAILED', message: paperProblem(plan, documentType, `, but it could not be made: ${reason}`) }] };
  }
}

/**
 * Makes every planned paper, each on its own: one that fails (a renderer bug, a document too large) is
 * a DOCUMENT_FAILED entry and the others are still made. Never throws — the carrier has booked, and a
 * booking is never lost over a piece of paper.
 */
export async function renderShippingDocuments(
  plan: ShippingDocumentsPlan | null,
  booked: { trackingNumber: string; now: Date },
  /** The paperless invoice already made and sent: kept as it is, never made twice. */
  made: RenderedShippingDocument | null = null,
): Promise<ShippingDocumentsResult> {
  if (!plan) return NO_SHIPPING_DOCUMENTS;
  const data: ShippingPaperData = { ...plan.data, trackingNumber: booked.trackingNumber, date: booked.now.toISOString() };
  const result: ShippingDocumentsResult = { documents: [], errors: [] };
  for (const documentType of plan.types) {
    if (made?.documentType === documentType) {
      result.documents.push(made);
      continue;
    }
    // A paperless invoice that could not be made is reported once, by renderPaperlessInvoice.
    if (plan.paperlessInvoice === documentType && !made) continue;
    try {
      result.documents.push({ documentType, content: await renderers[documentType](data) });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      result.errors.push({ code: 'DOCUMENT_FAILED', message: paperProblem(plan, documentType, `, but it could not be made: ${reason}`) });
    }
  }
  return result;
}
