/**
 * Shipdesk's booking in Karrio's words and Karrio's answers in Shipdesk's: pure functions, so the
 * adapter only sequences calls.
 */
import type { BookingParcel, BookingParty, BookingRequest, CustomsDeclaration, ExportReason, PickupRequest } from '../adapter';
import { declaredGoods } from '../customsGoods';
import {
  karrioIncoterms,
  type KarrioCustomsData,
  karrioErrorMessagesSchema,
  karrioErrorResponseSchema,
  karrioOptionSchema,
  type KarrioAddressData,
  type KarrioConnection,
  type KarrioParcelData,
  type KarrioPickupData,
  type KarrioShipment,
  type KarrioShipmentData,
  type KarrioTrackingEvent,
  type KarrioTrackingStatus,
} from './contract';

export type ShipdeskTrackingStatus = 'pending' | 'in_transit' | 'out_for_delivery' | 'delivered' | 'exception' | 'returned' | 'unknown';

/** Karrio's normalized tracking statuses onto ours; a parcel waiting at a pickup point is on its last step. */
export const trackingStatusFromKarrio: Record<KarrioTrackingStatus, ShipdeskTrackingStatus> = {
  pending: 'pending',
  picked_up: 'in_transit',
  in_transit: 'in_transit',
  delivery_delayed: 'in_transit',
  out_for_delivery: 'out_for_delivery',
  ready_for_pickup: 'out_for_delivery',
  delivered: 'delivered',
  on_hold: 'exception',
  delivery_failed: 'exception',
  cancelled: 'exception',
  return_to_sender: 'returned',
  unknown: 'unknown',
};

/** Karrio's "attention to" is a person; the company goes beside it when the party names one. */
export function karrioAddress(party: BookingParty): KarrioAddressData {
  const person = party.attention ?? party.name;
  const company = party.company ?? (party.attention ? party.name : null);
  return {
    person_name: person,
    company_name: company,
    address_line1: party.address1,
    address_line2: party.address2,
    postal_code: party.postalCode,
    city: party.city,
    country_code: party.countryCode.toUpperCase(),
    phone_number: party.phone,
    email: party.email,
  };
}

export function karrioParcel(parcel: BookingParcel): KarrioParcelData {
  return {
    weight: parcel.weightKg,
    weight_unit: 'KG',
    length: parcel.length,
    width: parcel.width,
    height: parcel.height,
    dimension_unit: 'CM',
  };
}

/**
 * The booking as one "single call label purchase": naming the service and the connection makes Karrio
 * buy the label in the same call. Chosen services are Karrio's on/off options; additional parameters
 * are passed as further Karrio options (insurance, declared_value, …).
 */
export function karrioShipmentData(request: BookingRequest, connectionId: string): KarrioShipmentData {
  const options: Record<string, unknown> = { ...request.additionalParameters };
  for (const service of request.services) options[service] = true;
  if (request.pickup) options.shipping_date = `${request.pickup.date}T${request.pickup.from ?? '09:00'}`;
  return {
    shipper: karrioAddress(request.sender),
    recipient: karrioAddress(request.receiver),
    parcels: request.parcels.map(karrioParcel),
    service: request.productId,
    carrier_ids: [connectionId],
    options,
    reference: request.reference,
    ...(request.customs ? { customs: karrioCustoms(request) } : {}),
    label_type: request.label.format === 'zpl' ? 'ZPL' : 'PDF',
  };
}

/**
 * A one-time pickup at the sender address with the connection's carrier. Karrio's pickup has no
 * weight; Shipdesk's pickup id goes in `metadata` so the pickup can be found in Karrio's dashboard.
 */
export function karrioPickupData(request: PickupRequest, carrierName: string, connectionId: string): KarrioPickupData {
  return {
    carrier_code: carrierName,
    pickup_date: request.date,
    address: karrioAddress(request.address),
    parcels_count: request.parcelCount,
    ready_time: request.from,
    closing_time: request.to,
    instruction: request.instruction,
    pickup_type: 'one_time',
    options: { connection_id: connectionId },
    metadata: { shipdesk_pickup_id: request.pickupId },
  };
}

/** Each parcel's own carrier number where the connector gives them (`meta.tracking_numbers`), else the shipment's. */
export function parcelTrackingNumbers(shipment: KarrioShipment, parcelCount: number): string[] {
  const main = shipment.tracking_number ?? '';
  const perParcel = shipment.meta?.tracking_numbers;
  const numbers = Array.isArray(perParcel) && perParcel.length === parcelCount ? perParcel.map(String) : null;
  return Array.from({ length: parcelCount }, (_, index) => numbers?.[index] ?? main);
}

/** Karrio's `tracking_url` is an API path unless the connector filled in the carrier's own page. */
export function publicTrackingUrl(shipment: KarrioShipment): string | null {
  const url = shipment.tracking_url ?? null;
  return url && /^https?:\/\//.test(url) && !/\/v1\/trackers\//.test(url) ? url : null;
}

/** Karrio's event date (`YYYY-MM-DD`) and time (`HH:MM`, `HH:MM:SS` or `HH:MM AM/PM`), or its ISO timestamp. */
export function eventTime(event: KarrioTrackingEvent): string | null {
  if (event.timestamp && !Number.isNaN(Date.parse(event.timestamp))) return new Date(event.timestamp).toISOString();
  if (!event.date || !/^\d{4}-\d{2}-\d{2}$/.test(event.date)) return null;
  const time = (event.time ?? '').trim().match(/^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(AM|PM)?$/i);
  const [rawHours, minutes, seconds] = time ? [Number(time[1]), Number(time[2]), Number(time[3] ?? 0)] : [0, 0, 0];
  const meridiem = time?.[4]?.toUpperCase();
  const hours = meridiem === 'PM' && rawHours < 12 ? rawHours + 12 : meridiem === 'AM' && rawHours === 12 ? 0 : rawHours;
  // Karrio gives the carrier's local time without a zone; it is kept as written.
  const iso = `${event.date}T${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}.000Z`;
  return Number.isNaN(Date.parse(iso)) ? null : iso;
}

/** A Karrio error body (`{errors}` of Karrio itself, `{messages}` of the carrier behind it) as `[{code, message}]`. */
export function karrioErrors(body: unknown): { code: string; message: string }[] {
  const fromList = (list: { code?: string | null; message?: string | null; details?: unknown; carrier_name?: string | null }[]) =>
    list.map((item) => ({
      code: item.code ?? 'error',
      message: item.message ?? (item.details === undefined ? 'Karrio gave no message' : JSON.stringify(item.details)),
    }));
  const messages = karrioErrorMessagesSchema.safeParse(body);
  if (messages.success && messages.data.messages.length > 0) return fromList(messages.data.messages);
  const errors = karrioErrorResponseSchema.safeParse(body);
  if (errors.success && errors.data.errors.length > 0) return fromList(errors.data.errors);
  return [];
}

/** How a connection is named in the carrier form's list. */
export function connectionLabel(connection: KarrioConnection): string {
  const name = connection.display_name ?? connection.carrier_name;
  return `${name} · ${connection.carrier_id}${connection.test_mode ? ' (test)' : ''}`;
}

/** `dhl_parcel_de_paket` of carrier `dhl_parcel_de` reads "Paket". */
export function serviceName(carrierName: string, serviceKey: string): string {
  const bare = serviceKey.startsWith(`${carrierName}_`) ? serviceKey.slice(carrierName.length + 1) : serviceKey;
  const words = bare.split('_').filter(Boolean);
  return words.map((word, index) => (index === 0 ? word.charAt(0).toUpperCase() + word.slice(1) : word)).join(' ') || serviceKey;
}

/** The on/off options of a carrier (`{option: {code, type: 'boolean'}}`), which Shipdesk offers as services. */
export function booleanOptions(options: Record<string, unknown>): string[] {
  return Object.entries(options)
    .filter(([, value]) => karrioOptionSchema.safeParse(value).data?.type === 'boolean')
    .map(([key]) => key);
}

const contentTypes: Record<ExportReason, KarrioCustomsData['content_type']> = {
  sale: 'merchandise',
  gift: 'gift',
  sample: 'sample',
  documents: 'documents',
  return: 'return_merchandise',
  repair: 'other',
  other: 'other',
};

/** Incoterms 2020 that Karrio's list lacks (DPU) are left for the connector's default. */
const incotermOf = (termOfTrade: string) =>
  (karrioIncoterms as readonly string[]).includes(termOfTrade) ? (termOfTrade as KarrioCustomsData['incoterm']) : null;

/** An export's declaration as Karrio's `customs`: one commodity per kind of goods, each unit's weight and value. */
export function karrioCustoms(request: BookingRequest): KarrioCustomsData {
  const customs = request.customs as CustomsDeclaration;
  const options: Record<string, unknown> = {};
  if (customs.exporter.eoriNumber) options.eori_number = customs.exporter.eoriNumber;
  if (customs.exporter.vatNumber) options.vat_registration_number = customs.exporter.vatNumber;
  return {
    commodities: declaredGoods(customs).map((goods) => ({
      weight: goods.unitWeightKg,
      weight_unit: 'KG',
      title: goods.description.slice(0, 200),
      description: goods.description.slice(0, 200),
      quantity: goods.quantity,
      sku: goods.sku.slice(0, 100),
      hs_code: goods.tarrifNumber,
      value_amount: goods.unitPrice,
      value_currency: goods.currency,
      origin_country: goods.countryOfOrigin,
    })),
    content_type: contentTypes[customs.exportReason],
    incoterm: incotermOf(request.termOfTrade),
    invoice: customs.invoiceNumber.slice(0, 50),
    invoice_date: customs.invoiceDate,
    // The invoice is made here (or by the connector where the carrier takes it); the booking says it exists.
    commercial_invoice: customs.invoiceKind === 'commercial',
    certify: true,
    signer: request.sender.name.slice(0, 50),
    options,
  };
}
