import type { CarrierField, CarrierProduct, DocumentFormat, LabelSize } from '../../src-shared/schemas/carrier';

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
  pickup: { date: string; from: string | null; to: string | null; instruction: string | null } | null;
  termOfTrade: string;
  label: LabelSpec;
}

export interface LabelDocument {
  parcelId: string;
  format: DocumentFormat;
  size: LabelSize;
  content: Buffer;
}

/** One call made to the carrier, kept in the shipment's `logs[]` (secrets masked by the caller). */
export interface CarrierCallLog {
  request: unknown;
  response: unknown;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface BookingResult {
  trackingNumber: string;
  trackingUrl: string | null;
  /** One label per parcel. */
  labels: LabelDocument[];
  calls: CarrierCallLog[];
}

export interface TrackingEvent {
  occurredAt: string;
  status: string;
  description: string;
  location: string | null;
}

export interface TrackingResult {
  trackingNumber: string;
  events: TrackingEvent[];
}

/** What an adapter may use during a call besides the request. */
export interface CarrierCallContext {
  orgId: string;
  /** The configured carrier's config with secrets opened. */
  config: CarrierConfig;
  now: Date;
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
  /** Checks beyond field presence, type and select options (formats, placeholders); none by default. */
  checkConfig?: (config: CarrierConfig) => ConfigIssue[];
  /**
   * Products are part of the adapter, not fetched, so rules and shipments can be checked against them
   * inside a synchronous SQLite transaction.
   */
  products: (config: CarrierConfig) => readonly CarrierProduct[];
  /** The label size and format used when neither the printer nor the request chooses one. */
  labelDefaults: (config: CarrierConfig) => LabelSpec;
  book: (context: CarrierCallContext, request: BookingRequest) => Promise<BookingResult>;
  /**
   * Draws a booked parcel's label again, in another format or size (USERS 3: a PDF of a ZPL label to
   * preview, or to print when only an office printer is at hand). Only carriers whose labels are made
   * here can; a carrier whose labels come from its own API leaves it out.
   */
  redrawLabel?: (context: LabelRedrawContext, request: BookingRequest, parcelId: string, label: LabelSpec) => Promise<Buffer>;
  /** Cancels a booked shipment with the carrier (cancel of a dispatched shipment). */
  void: (context: CarrierCallContext, booking: { shipmentId: string; trackingNumber: string }) => Promise<{ calls: CarrierCallLog[] }>;
  track: (context: CarrierCallContext, trackingNumber: string) => Promise<TrackingResult>;
}
