import type { CarrierField, CarrierProduct, DocumentFormat, LabelSize, ServicePoint } from '../../src-shared/schemas/carrier';
import type { TrackingStatus } from '../../src-shared/schemas/shipment';
import type { CarrierCallLog, CarrierHttp } from './platform/carrierHttp';

export type { CarrierCallLog };

/**
 * The one interface every carrier implements (decisions §8): products, book, void, track. The
 * built-in `local` carrier books offline; real carriers are added behind the same interface, so
 * send, cancel and tracking never branch on the carrier.
 */

/** A carrier's config as stored per configured carrier; secrets are opened only for the adapter. */
export type CarrierConfig = Readonly<Record<string, unknown>>;

/** What the catalogue shows of an adapter (GET /available-carriers), apart from its slug. */
export interface CarrierDescription {
  name: string;
  group: string;
  description: string;
  learnMoreUrl: string;
  /** SVG markup; the catalogue inlines it as a data URI so the logo shows without a network. */
  logoSvg: string;
  /** Required and optional config fields together; `required` sorts them into the catalogue lists. */
  fields: readonly CarrierField[];
}

/** A config problem the generic field checks cannot see, named by its config key. */
export interface ConfigIssue {
  key: string;
  message: string;
}

export interface LabelSpec {
  size: LabelSize;
  format: DocumentFormat;
}

export interface BookingParty {
  name: string;
  attention: string | null;
  /** The party's company when neither its name nor attention shows it (src-shared/partyCompany.ts). */
  company: string | null;
  address1: string;
  address2: string | null;
  postalCode: string;
  city: string;
  countryCode: string;
  phone: string | null;
  email: string | null;
}

export interface BookingParcel {
  /** The parcel's id, so each label document can be tied to its parcel. */
  parcelId: string;
  weightKg: number;
  /** Centimetres. */
  length: number;
  width: number;
  height: number;
}

/** A shipment as a carrier needs it to book: everything resolved, nothing left to look up. */
export interface BookingRequest {
  shipmentId: string;
  reference: string;
  type: 'outbound' | 'inbound';
  productId: string;
  services: readonly string[];
  additionalParameters: Readonly<Record<string, unknown>>;
  sender: BookingParty;
  receiver: BookingParty;
  /** Further parties (pickup, service_point, …) by their shipment party type. */
  otherParties: readonly (BookingParty & { type: string })[];
  parcels: readonly BookingParcel[];
  servicePointId: string | null;
  /**
   * The carrier's own notice to the receiver that the shipment's shipping rule asks for
   * (`phoneNotification`, `emailNotification`); the adapter sends the phone or e-mail for it.
   */
  notify: { phone: boolean; email: boolean };
  pickup: { date: string; from: string | null; to: string | null; instruction: string | null } | null;
  termOfTrade: string;
  label: LabelSpec;
  /**
   * The customs declaration when the receiver is outside the sender's customs territory (issue 21),
   * null for a shipment that stays inside it. Checked complete before the carrier is called.
   */
  customs: CustomsDeclaration | null;
}

/** One kind of goods in one parcel, as customs sees it (issue 21). */
export interface CustomsLine {
  parcelId: string;
  sku: string;
  description: string;
  quantity: number;
  /** Price of one unit in `currency`. */
  unitPrice: number;
  currency: string;
  /** Net weight of one unit. */
  unitWeightKg: number;
  /** The HS code (the spec's spelling). */
  tarrifNumber: string;
  /** ISO 3166-1 alpha-2. */
  countryOfOrigin: string;
}

/** Why the goods cross the border; each carrier maps it to its own codes. */
export type ExportReason = 'sale' | 'gift' | 'sample' | 'return' | 'repair' | 'documents' | 'other';

/** What is declared to customs for an export: the same values the invoice and CN22/CN23 made here show. */
export interface CustomsDeclaration {
  exportReason: ExportReason;
  /** `INV-<reference>` (commercial) or `PRO-<reference>` (proforma): documents/invoice.ts invoiceNumber. */
  invoiceNumber: string;
  /** YYYY-MM-DD. */
  invoiceDate: string;
  invoiceKind: 'commercial' | 'proforma';
  /** The declaration's currency: every line's (a mixed-currency shipment is refused before the call). */
  currency: string;
  /** Sum of quantity × unit price over every line. */
  totalValue: number;
  /** The exporter's identifiers: the sender address's `customs` overrides the organization's. */
  exporter: { eoriNumber: string | null; vatNumber: string | null };
  lines: readonly CustomsLine[];
  /**
   * The customs invoice made here as PDF, for a carrier that takes it electronically (paperless
   * trade, `CarrierAdapter.paperlessInvoice`); null otherwise. The same bytes are kept as the
   * shipment's invoice document, so what the carrier and the paper show agree.
   */
  invoice: { documentType: 'commercial_invoice' | 'proforma_invoice'; content: Buffer } | null;
}

/** A collection booked with a carrier (issue 21): where and when the driver comes. */
export interface PickupRequest {
  /** Shipdesk's pickup id, sent as the carrier's customer reference where it has one. */
  pickupId: string;
  /** YYYY-MM-DD. */
  date: string;
  /** HH:MM, local time at the address. */
  from: string;
  to: string;
  address: BookingParty;
  parcelCount: number | null;
  weightKg: number | null;
  instruction: string | null;
}

export interface PickupBooking {
  /** The carrier's confirmation number (DHL's dispatch confirmation number, UPS's PRN, …). */
  confirmationNumber: string;
  /** What the adapter needs later to cancel it; kept with the pickup. */
  booking: Record<string, unknown>;
}

export interface BookedPickup {
  pickupId: string;
  date: string;
  confirmationNumber: string;
  booking: Readonly<Record<string, unknown>>;
}

/** The end-of-day handover (issue 21): every dispatched shipment of one carrier not yet handed over. */
export interface CloseOutRequest {
  closeOutId: string;
  /** Null when the close-out covers every sender address. */
  senderAddress: BookingParty | null;
  shipments: readonly BookedShipment[];
}

export interface CloseOutResult {
  /** The carrier's id of the manifest or end-of-day record, when it gives one. */
  carrierReference: string | null;
  /** The carrier's own manifest document, when it returns one. */
  document: { format: DocumentFormat; content: Buffer } | null;
}

export interface LabelDocument {
  /** The parcel the label is for; null when the carrier gives one file for the whole shipment. */
  parcelId: string | null;
  format: DocumentFormat;
  /** The label's physical size, as the carrier made it. */
  size: LabelSize;
  /** Exactly the bytes the carrier returned (or the local carrier drew). */
  content: Buffer;
}

/** Each parcel's own carrier number (decisions §13). */
export interface BookedParcel {
  parcelId: string;
  trackingNumber: string;
  /** The carrier's parcel number where it has one apart from the tracking number. */
  parcelNumber: string | null;
}

export interface BookingResult {
  /** The shipment's number: the first parcel's where the carrier numbers parcels. */
  trackingNumber: string;
  trackingUrl: string | null;
  parcels: BookedParcel[];
  /** One label per parcel, or one for the whole shipment. */
  labels: LabelDocument[];
  /** What the adapter needs later to void or track it (e.g. the carrier's shipment id); kept with the shipment. */
  booking: Record<string, unknown>;
}

/** A booked shipment as void and track see it. */
export interface BookedShipment {
  shipmentId: string;
  reference: string;
  trackingNumber: string;
  parcels: readonly BookedParcel[];
  booking: Readonly<Record<string, unknown>>;
  bookedAt: string | null;
}

export type VoidResult = { voided: true } | { voided: false; instruction: string };

export interface TrackingEvent {
  at: string;
  /** The carrier's own event code. */
  code: string;
  description: string;
  location: string | null;
}

export interface TrackingResult {
  status: TrackingStatus;
  events: TrackingEvent[];
}

export interface ServicePointQuery {
  countryCode: string;
  postalCode: string;
  address1: string | null;
  city: string | null;
  limit: number;
}

/** What an adapter may use during a call besides the request. */
export interface CarrierCallContext {
  orgId: string;
  /** The configured carrier's id (null before it is saved: testing a config, listing options). */
  carrierId: string | null;
  /** The configured carrier's config with secrets opened. */
  config: CarrierConfig;
  now: Date;
  /** The one way to reach the carrier: time limit, retries, Retry-After, concurrency and call logs (platform/carrierHttp.ts). */
  http: CarrierHttp;
  /**
   * The next number of the organization's tracking sequence; offline carriers number their own
   * shipments from it, so the caller hands it in from its write transaction.
   */
  nextTrackingSequence: () => number;
}

/** What a label was booked with, to draw it again the same. */
export interface LabelRedrawContext {
  config: CarrierConfig;
  trackingNumber: string;
  bookedAt: Date;
}

export interface CarrierAdapter {
  slug: string;
  describe: CarrierDescription;
  /**
   * A carrier reached over the network: the platform adds `testMode` and `apiBaseUrl` to its fields
   * (decisions §13). `origins` are its documented endpoints; apiBaseUrl replaces their scheme, host and port.
   */
  remote?: { origins: { production: string; sandbox: string }; apiBaseUrlRequired?: boolean };
  /** Checks beyond field presence, type and select options (formats, placeholders); none by default. */
  checkConfig?: (config: CarrierConfig) => ConfigIssue[];
  /**
   * Synchronous, so rules and shipments can be checked against them inside a SQLite transaction.
   * `stored` is what refreshProducts last read from the carrier, kept with the configured carrier.
   */
  products: (config: CarrierConfig, stored: readonly CarrierProduct[] | null) => readonly CarrierProduct[];
  /** Reads the products from the carrier (Karrio: the connection's services); kept with the carrier. */
  refreshProducts?: (context: CarrierCallContext) => Promise<CarrierProduct[]>;
  /** Choices of a select field read from the carrier with the typed credentials, before anything is saved. */
  fieldOptions?: (context: CarrierCallContext, fieldKey: string) => Promise<{ name: string; value: string }[]>;
  /** Authenticates (and reads what it needs) without booking; answers a sentence for the user. */
  testConnection?: (context: CarrierCallContext) => Promise<string>;
  /** The label size and format used when neither the printer nor the request chooses one. */
  labelDefaults: (config: CarrierConfig) => LabelSpec;
  book: (context: CarrierCallContext, request: BookingRequest) => Promise<BookingResult>;
  /**
   * Asks the carrier for a booking made under the shipment's reference (after an unknown outcome):
   * the booking with its labels, or null when there is none. Absent when the carrier cannot be asked;
   * then a rebook needs the user's `confirmRebook`.
   */
  findBooking?: (context: CarrierCallContext, request: BookingRequest) => Promise<BookingResult | null>;
  /**
   * Draws a booked parcel's label again, in another format or size (USERS 3: a PDF of a ZPL label to
   * preview, or to print when only an office printer is at hand). Only carriers whose labels are made
   * here can; a carrier whose labels come from its own API leaves it out.
   */
  redrawLabel?: (context: LabelRedrawContext, request: BookingRequest, parcelId: string, label: LabelSpec) => Promise<Buffer>;
  /** Cancels a booked shipment with the carrier; `voided: false` where the carrier has no such call. */
  void: (context: CarrierCallContext, booked: BookedShipment) => Promise<VoidResult>;
  /** Asks about several shipments at once where the carrier allows; absent for a carrier nobody can ask. */
  track?: (context: CarrierCallContext, booked: readonly BookedShipment[]) => Promise<Map<string, TrackingResult>>;
  /** How many shipments one `track` call may ask about (the poller's batch); 50 when left out. */
  trackBatchSize?: number;
  /** The carrier's own service point lookup, nearest first; absent: the carrier has none (answers []). */
  servicePoints?: (context: CarrierCallContext, query: ServicePointQuery) => Promise<ServicePoint[]>;
  /**
   * True when the carrier takes the customs invoice electronically with the booking (paperless trade,
   * where the account allows it): the booking path then makes the invoice before the call and hands it
   * in `request.customs.invoice`. Absent or false: the invoice travels on paper.
   */
  paperlessInvoice?: (config: CarrierConfig) => boolean;
  /**
   * True when the carrier's booking takes no customs data at all (GLS ShipIT): an export's customs
   * invoice is then always made here, to travel printed with the parcel (issue 21).
   */
  customsOnPaper?: boolean;
  /** Books a collection with the carrier; absent: the carrier has no pickup booking through its API. */
  bookPickup?: (context: CarrierCallContext, request: PickupRequest) => Promise<PickupBooking>;
  /** Cancels a booked collection; absent: it cannot be cancelled through the API. */
  cancelPickup?: (context: CarrierCallContext, pickup: BookedPickup) => Promise<void>;
  /**
   * The carrier's manifest or end-of-day call for the shipments handed over; absent where the carrier
   * has none (the handover list made here is then the whole close-out). Throws a CarrierFailure when
   * the carrier refuses, and then nothing is closed.
   */
  closeOut?: (context: CarrierCallContext, request: CloseOutRequest) => Promise<CloseOutResult>;
}
