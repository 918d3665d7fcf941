import type { BodyOf } from '../../../../../src-shared/operation';
import type { OperationById } from '../../../../../src-shared/operations';
import {
  incoterms,
  partyTypes,
  weightUnits,
  type Party,
  type Parcel,
  type Shipment,
  type ShipmentType,
  type WeightUnit,
} from '../../../../../src-shared/schemas/shipment';
import type { ServicePoint } from '../../../../../src-shared/schemas/carrier';
import { servicePointParty, withServicePointParty } from '../../../../../src-shared/servicePointParty';

/**
 * The shipment form as typed: every field a string, so nothing a user types is rejected or reshaped
 * before they save. Numbers are read only when the body is built; the server's field messages come
 * back at the same paths (`parcels.1.orderLines.0.quantity`) as this state.
 */

export type PartyType = (typeof partyTypes)[number];
export type Incoterm = (typeof incoterms)[number];

export interface PartyForm {
  type: PartyType;
  name: string;
  attention: string;
  address1: string;
  address2: string;
  postalCode: string;
  city: string;
  countryCode: string;
  phone: string;
  email: string;
  /** Not edited here, but kept so an edit does not drop them. */
  attributes: { name: string; value: string }[];
}

export interface OrderLineForm {
  /** The line's id when it is one of the shipment's (an edit); a line added in the form has none. */
  id?: string;
  sku: string;
  description: string;
  quantity: string;
  unitPrice: string;
  currency: string;
  countryOfOrigin: string;
  tarrifNumber: string;
  /** Net weight of one unit in kg, for customs; '' when not known. */
  weight: string;
  /** Not edited here, kept as they were. */
  vatPercent: string;
  location: string;
}

export interface ParcelForm {
  /** The parcel's id when it is one of the shipment's (an edit); a parcel added in the form has none. */
  id?: string;
  weight: string;
  weightUnit: WeightUnit;
  length: string;
  width: string;
  height: string;
  orderLines: OrderLineForm[];
}

export interface ShipmentForm {
  type: ShipmentType;
  carrierId: string;
  productId: string;
  services: string[];
  /** Edit only: '' keeps the carrier; a rule id re-applies that rule's carrier, product and sender. */
  shippingRuleId: string;
  /** '' = the carrier's sender address. */
  senderAddressId: string;
  reference: string;
  parties: PartyForm[];
  parcels: ParcelForm[];
  termOfTrade: Incoterm;
  pickup: { date: string; from: string; to: string; instruction: string };
  servicePointId: string;
}

export const emptyParty = (type: PartyType): PartyForm => ({
  type,
  name: '',
  attention: '',
  address1: '',
  address2: '',
  postalCode: '',
  city: '',
  countryCode: '',
  phone: '',
  email: '',
  attributes: [],
});

/**
 * A point chosen in the picker: its id, and its name and address as the shipment's service_point
 * party in place of any earlier one (decisions §13); none removes both.
 */
export function choosePoint(form: ShipmentForm, point: ServicePoint | null): Pick<ShipmentForm, 'servicePointId' | 'parties'> {
  const party = point ? servicePointParty(point) : null;
  const partyForm: PartyForm | null = party ? { ...emptyParty('service_point'), ...party, type: 'service_point', attributes: party.attributes ?? [] } : null;
  return { servicePointId: point?.id ?? '', parties: withServicePointParty(form.parties, partyForm) };
}

/** The receiver's address, as the picker finds the nearest points to it. */
export function receiverAddress(form: ShipmentForm): { countryCode: string; postalCode: string; address1: string; city: string } {
  const receiver = form.parties.find((party) => party.type === 'receiver');
  return { countryCode: receiver?.countryCode ?? '', postalCode: receiver?.postalCode ?? '', address1: receiver?.address1 ?? '', city: receiver?.city ?? '' };
}

export const emptyOrderLine = (): OrderLineForm => ({
  sku: '',
  description: '',
  quantity: '1',
  unitPrice: '',
  currency: '',
  countryOfOrigin: '',
  tarrifNumber: '',
  weight: '',
  vatPercent: '',
  location: '',
});

export const emptyParcel = (): ParcelForm => ({ weight: '', weightUnit: 'kg', length: '', width: '', height: '', orderLines: [] });

export function emptyForm(): ShipmentForm {
  return {
    type: 'outbound',
    carrierId: '',
    productId: '',
    services: [],
    shippingRuleId: '',
    senderAddressId: '',
    reference: '',
    parties: [emptyParty('receiver')],
    parcels: [emptyParcel()],
    termOfTrade: 'DAP',
    pickup: { date: '', from: '', to: '', instruction: '' },
    servicePointId: '',
  };
}

const asText = (value: number) => String(value);

function partyForm(party: Party): PartyForm {
  const type = (partyTypes as readonly string[]).includes(party.type) ? (party.type as PartyType) : 'receiver';
  return { ...party, type, email: party.email ?? '', attributes: party.attributes };
}

function parcelForm(parcel: Parcel): ParcelForm {
  return {
    id: parcel.id,
    weight: asText(parcel.weight),
    weightUnit: (weightUnits as readonly string[]).includes(parcel.weightUnit) ? (parcel.weightUnit as WeightUnit) : 'kg',
    length: asText(parcel.dimensions.length),
    width: asText(parcel.dimensions.width),
    height: asText(parcel.dimensions.height),
    orderLines: parcel.orderLines.map((line) => ({
      id: line.id,
      sku: line.sku,
      description: line.description,
      quantity: asText(line.quantity),
      unitPrice: asText(line.unitPrice),
      currency: line.currency,
      countryOfOrigin: line.countryOfOrigin,
      tarrifNumber: line.tarrifNumber,
      weight: line.weight === null ? '' : asText(line.weight),
      vatPercent: asText(line.vatPercent),
      location: line.location,
    })),
  };
}

/** The form of a stored shipment, for editing. */
export function formOf(shipment: Shipment): ShipmentForm {
  return {
    type: shipment.type,
    carrierId: shipment.carrierSettings.carrierId,
    productId: shipment.carrierSettings.productId,
    services: shipment.carrierSettings.services,
    shippingRuleId: '',
    senderAddressId: shipment.senderAddressId,
    reference: shipment.reference,
    parties: shipment.parties.map(partyForm),
    parcels: shipment.parcels.map(parcelForm),
    termOfTrade: (incoterms as readonly string[]).includes(shipment.termOfTrade) ? (shipment.termOfTrade as Incoterm) : 'DAP',
    pickup: shipment.pickupDetails ?? { date: '', from: '', to: '', instruction: '' },
    servicePointId: shipment.servicePointId ?? '',
  };
}

// ---- Building the request body ----

export type CreateBody = BodyOf<OperationById<'shipments.create'>>;
export type UpdateBody = BodyOf<OperationById<'shipments.update'>>;
type PartyBody = NonNullable<CreateBody['parties']>[number];
type ParcelBody = NonNullable<CreateBody['parcels']>[number];

/** Field messages found before sending, at the same paths the server uses. */
export type FieldMessages = Record<string, string>;

class NumberReader {
  readonly errors: FieldMessages = {};
  /** A required number; records a message at `path` when it is missing or not a number. */
  required(value: string, path: string, whole = false): number {
    const parsed = this.parse(value);
    if (value.trim() === '') this.errors[path] = 'Required';
    else if (parsed === null) this.errors[path] = 'Enter a number, e.g. 1.5';
    else if (whole && !Number.isInteger(parsed)) this.errors[path] = 'Enter a whole number';
    return parsed ?? 0;
  }
  /** A weight: send refuses a parcel of 0 (decisions §8), so the form says so before anything is saved. */
  positive(value: string, path: string): number {
    const parsed = this.required(value, path);
    const problem = this.errors[path] ? null : weightProblem(value);
    if (problem) this.errors[path] = problem;
    return parsed;
  }
  optional(value: string, path: string): number | undefined {
    if (value.trim() === '') return undefined;
    const parsed = this.parse(value);
    if (parsed === null) this.errors[path] = 'Enter a number, e.g. 12.50';
    return parsed ?? undefined;
  }
  private parse(value: string): number | null {
    // A comma is a decimal separator for most of Europe's warehouses.
    const parsed = Number(value.trim().replace(',', '.'));
    return value.trim() !== '' && Number.isFinite(parsed) ? parsed : null;
  }
}

/**
 * What is wrong with a parcel weight as typed, said while it is typed: 0 (or less) is refused by send,
 * so a shipment saved with it would fail only at the packing station. Empty is the save's "Required".
 */
export function weightProblem(value: string): string | null {
  const parsed = Number(value.trim().replace(',', '.'));
  if (value.trim() === '' || !Number.isFinite(parsed)) return null;
  return parsed > 0 ? null : NO_WEIGHT;
}
export const NO_WEIGHT = 'Must be more than 0: a parcel without weight cannot be sent';

const optionalText = (value: string) => (value.trim() === '' ? undefined : value.trim());
const code = (value: string) => optionalText(value)?.toUpperCase();

function partyBody(party: PartyForm): PartyBody {
  const body: PartyBody = {
    type: party.type,
    name: party.name.trim(),
    address1: party.address1.trim(),
    postalCode: party.postalCode.trim(),
    city: party.city.trim(),
    countryCode: party.countryCode.trim().toUpperCase(),
    attention: optionalText(party.attention),
    address2: optionalText(party.address2),
    phone: optionalText(party.phone),
    email: optionalText(party.email),
  };
  if (party.attributes.length > 0) body.attributes = party.attributes;
  return body;
}

function parcelBody(parcel: ParcelForm, index: number, numbers: NumberReader): ParcelBody {
  const at = `parcels.${index}`;
  // Ids go back as read, so the server keeps each parcel and line under its id (split paths,
  // orderLineIds and labels refer to them) instead of making them anew on every save.
  return {
    ...(parcel.id ? { id: parcel.id } : {}),
    weight: numbers.positive(parcel.weight, `${at}.weight`),
    weightUnit: parcel.weightUnit,
    dimensions: {
      length: numbers.required(parcel.length, `${at}.dimensions.length`),
      width: numbers.required(parcel.width, `${at}.dimensions.width`),
      height: numbers.required(parcel.height, `${at}.dimensions.height`),
    },
    orderLines: parcel.orderLines.map((line, lineIndex) => {
      const lineAt = `${at}.orderLines.${lineIndex}`;
      return {
        ...(line.id ? { id: line.id } : {}),
        sku: line.sku.trim(),
        quantity: numbers.required(line.quantity, `${lineAt}.quantity`, true),
        description: optionalText(line.description),
        unitPrice: numbers.optional(line.unitPrice, `${lineAt}.unitPrice`),
        currency: code(line.currency),
        countryOfOrigin: code(line.countryOfOrigin),
        tarrifNumber: optionalText(line.tarrifNumber),
        // Emptied on a kept line it is cleared; on a new line it is simply not given.
        weight: line.weight.trim() === '' ? (line.id ? null : undefined) : numbers.optional(line.weight, `${lineAt}.weight`),
        vatPercent: numbers.optional(line.vatPercent, `${lineAt}.vatPercent`),
        location: optionalText(line.location),
      };
    }),
  };
}

function pickupBody(pickup: ShipmentForm['pickup']) {
  const given = pickup.date || pickup.from || pickup.to || pickup.instruction.trim();
  return given ? { date: pickup.date, from: pickup.from, to: pickup.to, instruction: pickup.instruction.trim() } : undefined;
}

/** The parts shared by create and update, and the messages for numbers that are not numbers. */
function commonParts(form: ShipmentForm) {
  const numbers = new NumberReader();
  const parts = {
    type: form.type,
    reference: optionalText(form.reference),
    parties: form.parties.length > 0 ? form.parties.map(partyBody) : undefined,
    parcels: form.parcels.length > 0 ? form.parcels.map((parcel, index) => parcelBody(parcel, index, numbers)) : undefined,
    termOfTrade: form.termOfTrade,
    pickupDetails: pickupBody(form.pickup),
    servicePointId: optionalText(form.servicePointId) ?? null,
  };
  return { parts, errors: numbers.errors };
}

export function createBody(form: ShipmentForm): { body: CreateBody; errors: FieldMessages } {
  const { parts, errors } = commonParts(form);
  if (!form.carrierId) errors['carrierSettings.carrierId'] = 'Choose a carrier';
  else if (!form.productId) errors['carrierSettings.productId'] = 'Choose a product';
  const body: CreateBody = {
    ...parts,
    carrierSettings: { carrierId: form.carrierId, productId: form.productId, services: form.services },
    senderAddressId: form.senderAddressId || undefined,
  };
  return { body: withoutUndefined(body), errors };
}

/**
 * A PATCH with only the parts that changed since the form was opened, so saving a new reference does
 * not rewrite the parcels (and their order-line ids). Carrier changes go through a shipping rule.
 */
export function updateBody(form: ShipmentForm, original: ShipmentForm): { body: UpdateBody; errors: FieldMessages } {
  const now = commonParts(form);
  const before = commonParts(original).parts;
  const body: Record<string, unknown> = {};
  for (const key of Object.keys(now.parts) as (keyof typeof now.parts)[]) {
    if (JSON.stringify(now.parts[key]) !== JSON.stringify(before[key])) body[key] = now.parts[key];
  }
  // Cleared in the form: the server is told to remove the pickup details.
  if ('pickupDetails' in body && body.pickupDetails === undefined) body.pickupDetails = null;
  if (form.senderAddressId && form.senderAddressId !== original.senderAddressId) body.senderAddressId = form.senderAddressId;
  if (form.shippingRuleId) body.shippingRuleId = form.shippingRuleId;
  return { body: withoutUndefined(body) as UpdateBody, errors: now.errors };
}

/** JSON leaves undefined out anyway; doing it here keeps the dirty check and the body honest. */
function withoutUndefined<T extends object>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** The PATCH that gives a shipment the point chosen outside its form (the Pack screen): its id and its party, nothing else. */
export function servicePointUpdate(shipment: Shipment, point: ServicePoint | null): UpdateBody {
  const before = formOf(shipment);
  return updateBody({ ...before, ...choosePoint(before, point) }, before).body;
}
