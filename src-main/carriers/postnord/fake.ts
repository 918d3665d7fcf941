/**
 * A local fake of PostNord's booking, service point and track-and-trace APIs on 127.0.0.1 (no
 * carrier can be reached from this machine). It serves the documented paths, checks the apikey,
 * validates every request with the contract's schemas and the EDI guideline's dependent-information
 * rules, and answers with PostNord's own bodies and error shapes. Switches make it fail, wait, rate
 * limit, or book and then drop the connection, and it counts bookings so tests can prove none doubled.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { z } from 'zod';
import {
  additionalServiceCodes as adds,
  basicServiceCodes,
  customerNumberDigits,
  postnordEdiInstructionSchema,
  postnordLabelsByIdsRequestSchema,
  postnordNearestByAddressQuerySchema,
  postnordServicePointsByIdsQuerySchema,
  postnordPdfQuerySchema,
  postnordZplQuerySchema,
  trackableId,
  trackingLocales,
  type PdfPaperSize,
  type PostnordEdiInstruction,
  type PostnordEdiLabelResponse,
  type PostnordErrorResponse,
  type PostnordFault,
  type PostnordLabelPrintout,
  type PostnordServicePoint,
  type PostnordShipment,
  type PostnordTrackedShipment,
  type PostnordTrackingEvent,
  type PostnordTrackingStatus,
} from './contract';

export const fakePostnordApiKey = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
export const fakePostnordCustomerNumber = '12345678';

export interface FakePostnordOptions {
  apiKey?: string;
  /** Customer numbers PostNord knows (Sweden, issuer Z12, unless the test says otherwise). */
  customerNumbers?: readonly string[];
  /** Postal codes PostNord refuses as unknown. */
  unknownPostalCodes?: readonly string[];
  servicePoints?: readonly FakeServicePoint[];
}

export interface FakeServicePoint extends PostnordServicePoint {
  /** Closed points are still found by id (a stale checkout choice) but refused in a booking. */
  closed?: boolean;
}

export interface FakeTrackedItem {
  itemId: string;
  status: PostnordTrackingStatus;
  events: PostnordTrackingEvent[];
}

export interface FakeBooking {
  bookingId: string;
  shipmentId: string;
  customerNumber: string;
  /** The consignor's CU reference, searchable with the customer number. */
  reference: string | null;
  basicServiceCode: string;
  additionalServiceCodes: string[];
  items: FakeTrackedItem[];
  instruction: PostnordShipment;
  endpoint: 'edi' | 'returns';
}

export interface FakeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

export interface FakePostnordState {
  bookings: FakeBooking[];
  requests: FakeRequest[];
  /** Calls that reached a booking endpoint, answered or not. */
  bookingCalls: number;
  /** Every label file sent, base64 as in the answer, so tests can compare what was stored byte for byte. */
  labels: { itemId: string; format: 'pdf' | 'zpl'; data: string }[];
  /** Adds a scan to an item (or to every item of a shipment id), as PostNord's terminals would. */
  addEvent(id: string, event: { status: PostnordTrackingStatus; eventCode: string; eventDescription: string; city?: string; at?: string }): void;
}

export interface FakePostnordSwitches {
  /** The next `times` requests answer this 5xx with PostNord's error body, doing nothing. */
  failNext(status?: number, times?: number): void;
  /** Every answer waits this long; a booking is made before the wait, so a caller that gives up finds it booked. */
  delayMs: number;
  /** The next `times` requests answer 429 with this Retry-After (seconds). */
  rateLimitNext(retryAfterSeconds: number, times?: number): void;
  /** The next booking is made, then the connection is dropped without an answer. */
  dropAfterBookingNext(): void;
  /** How an unknown key is refused: the API gateway's envelope (seen live) or the documented errorResponse. */
  authRefusal: 'gateway' | 'errorResponse';
}

export interface FakePostnord {
  url: string;
  state: FakePostnordState;
  switches: FakePostnordSwitches;
  close(): Promise<void>;
}

/** A few real-shaped Swedish service points near Stockholm, nearest first from 11 528. */
export const defaultServicePoints: readonly FakeServicePoint[] = [
  servicePoint('1234567', 'ICA Supermarket Karlaplan', 'Karlaplan', '13', '11460', 'Stockholm', 59.3389, 18.0903, 410),
  servicePoint('2345678', 'Pressbyrån Östermalmstorg', 'Östermalmstorg', '1', '11442', 'Stockholm', 59.3349, 18.0768, 980),
  servicePoint('3456789', 'Paketbox Gärdet', 'Valhallavägen', '185', '11553', 'Stockholm', 59.3466, 18.0993, 1350),
  servicePoint('4567890', 'Coop Lidingövägen', 'Lidingövägen', '75', '11537', 'Stockholm', 59.3479, 18.1001, 2100),
  { ...servicePoint('5678901', 'Kiosken Valhallavägen', 'Valhallavägen', '120', '11441', 'Stockholm', 59.3431, 18.0796, 1500), closed: true },
];

function servicePoint(
  id: string,
  name: string,
  street: string,
  number: string,
  postalCode: string,
  city: string,
  lat: number,
  lon: number,
  distance: number,
): FakeServicePoint {
  const address = { countryCode: 'SE', city: city.toUpperCase(), streetName: street, streetNumber: number, postalCode };
  return {
    servicePointId: id,
    name,
    routeDistance: distance,
    visitingAddress: { ...address, addressType: 'VISITING' },
    deliveryAddress: { ...address, addressType: 'DELIVERY' },
    coordinates: [{ countryCode: 'SE', northing: lat, easting: lon, srId: 'EPSG:4326' }],
    openingHours: {
      postalServices: [
        ...(['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY'] as const).map((day) => ({
          openDay: day,
          openTime: '08:00',
          closeDay: day,
          closeTime: '20:00',
        })),
        { openDay: 'SATURDAY', openTime: '10:00', closeDay: 'SATURDAY', closeTime: '16:00' },
      ],
    },
    type: { typeId: 25, typeName: 'Servicepoint' },
  };
}

type Answer = { status: number; body: unknown; headers?: Record<string, string>; raw?: string; drop?: boolean };

const nordic = new Set(['SE', 'NO', 'DK', 'FI', 'AX']);
/** The EU's members, the fake's own list: a consignee outside it from one inside is an export. */
const euCountries = new Set('AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE'.split(' '));

export async function startFakePostnord(options: FakePostnordOptions = {}): Promise<FakePostnord> {
  const apiKey = options.apiKey ?? fakePostnordApiKey;
  const customerNumbers = new Set(options.customerNumbers ?? [fakePostnordCustomerNumber]);
  const unknownPostalCodes = new Set(options.unknownPostalCodes ?? ['99999']);
  const points = options.servicePoints ?? defaultServicePoints;
  let sequence = 0;
  let failures: { status: number; left: number } | null = null;
  let rateLimit: { retryAfter: number; left: number } | null = null;
  let dropNextBooking = false;

  const state: FakePostnordState = {
    bookings: [],
    requests: [],
    bookingCalls: 0,
    labels: [],
    addEvent(id, event) {
      const items = state.bookings.flatMap((booking) => (booking.shipmentId === id ? booking.items : booking.items.filter((item) => item.itemId === id)));
      for (const item of items) {
        item.status = event.status;
        item.events.push({
          eventTime: event.at ?? stockholmTime(new Date()),
          eventCode: event.eventCode,
          status: event.status,
          eventDescription: event.eventDescription,
          location: { locationId: '1100', name: event.city ?? 'Stockholm', city: event.city ?? 'Stockholm', countryCode: 'SE', locationType: 'HUB' },
        });
      }
    },
  };
  const switches: FakePostnordSwitches = {
    delayMs: 0,
    authRefusal: 'gateway',
    failNext(status = 503, times = 1) {
      failures = { status, left: times };
    },
    rateLimitNext(retryAfterSeconds, times = 1) {
      rateLimit = { retryAfter: retryAfterSeconds, left: times };
    },
    dropAfterBookingNext() {
      dropNextBooking = true;
    },
  };

  const nextDigits = (width: number) => String(++sequence).padStart(width, '0');

  async function book(endpoint: 'edi' | 'returns', format: 'pdf' | 'zpl', query: Record<string, string>, body: unknown): Promise<Answer> {
    const querySchema: z.ZodType = format === 'pdf' ? postnordPdfQuerySchema : postnordZplQuerySchema;
    const queryCheck = querySchema.safeParse(query);
    if (!queryCheck.success) return badRequest('Invalid query parameter', zodFaults(queryCheck.error));
    const parsed = postnordEdiInstructionSchema.safeParse(body);
    if (!parsed.success) return badRequest('Invalid indata object EdiInstruction', zodFaults(parsed.error));
    const faults = parsed.data.shipment.flatMap((shipment, index) => businessFaults(shipment, index, endpoint));
    if (faults.length > 0) return badRequest('Invalid indata object EdiInstruction', faults);

    const made = parsed.data.shipment.map((shipment) => record(shipment, endpoint, parsed.data));
    const paperSize = (query.paperSize as PdfPaperSize | undefined) ?? 'A4';
    const labelPrintout: PostnordLabelPrintout[] = [];
    for (const booking of made) {
      for (const item of booking.items) labelPrintout.push(await printout(item.itemId, booking.basicServiceCode, format, paperSize));
    }
    const answer: PostnordEdiLabelResponse = {
      bookingResponse: {
        bookingId: made[0]?.bookingId,
        idInformation: made.map((booking) => ({
          status: 'OK',
          references: { shipment: booking.reference ? [{ referenceNo: booking.reference, referenceType: 'CU' }] : [] },
          ids: [
            ...booking.items.map((item, index) => ({ idType: 'itemId', value: item.itemId, printId: `p${sequence}${index}` })),
            { idType: 'shipmentId', value: booking.shipmentId },
          ],
          urls: booking.items.map((item) => ({ type: 'TRACKING', url: `https://tracking.postnord.com/se/?id=${item.itemId}` })),
        })),
      },
      labelPrintout,
    };
    return { status: 200, body: answer };
  }

  function record(shipment: PostnordShipment, endpoint: 'edi' | 'returns', instruction: PostnordEdiInstruction): FakeBooking {
    const bookedAt = stockholmTime(new Date(instruction.messageDate));
    const items: FakeTrackedItem[] = shipment.goodsItem.flatMap((goods) =>
      goods.items.map((item) => ({
        itemId: item.itemIdentification.itemId === '0' ? `00373500${nextDigits(12)}` : item.itemIdentification.itemId,
        status: 'INFORMED' as const,
        events: [
          {
            eventTime: bookedAt,
            eventCode: 'EDI',
            status: 'INFORMED',
            eventDescription: 'The sender has notified us of the shipment; the item has not reached PostNord yet',
            location: { locationId: '0', name: 'PostNord', countryCode: 'SE', locationType: 'UNDEF' },
          },
        ],
      })),
    );
    const booking: FakeBooking = {
      bookingId: `B${nextDigits(8)}FAKE${nextDigits(6)}`,
      shipmentId: shipment.shipmentIdentification?.shipmentId ?? `7${nextDigits(10)}SE`,
      customerNumber: shipment.parties.consignor.partyIdentification.partyId,
      reference: shipment.references?.find((ref) => ref.referenceType === 'CU')?.referenceNo ?? null,
      basicServiceCode: shipment.service.basicServiceCode,
      additionalServiceCodes: shipment.service.additionalServiceCode ?? [],
      items,
      instruction: shipment,
      endpoint,
    };
    state.bookings.push(booking);
    return booking;
  }

  /** The EDI guideline's checks and dependent information, for the codes Shipdesk books. */
  function businessFaults(shipment: PostnordShipment, index: number, endpoint: 'edi' | 'returns'): PostnordFault[] {
    const at = `shipment[${index}]`;
    const faults: PostnordFault[] = [];
    const fault = (type: string, subType: string, explanationText: string) =>
      faults.push({
        explanationText,
        faultReferences: [
          { key: 'CustomerOriginValidationError.type', value: type },
          { key: 'CustomerOriginValidationError.subType', value: subType },
        ],
      });
    const { consignor, consignee, deliveryParty } = shipment.parties;
    const code = shipment.service.basicServiceCode;
    const extra = new Set(shipment.service.additionalServiceCode ?? []);
    const customerNumber = consignor.partyIdentification.partyId;
    const digits = consignor.issuerCode === 'ZDL' ? null : customerNumberDigits[consignor.issuerCode];
    if (consignor.partyIdentification.partyIdType !== '160')
      fault('INVALID_VALUE', 'PARTY_ID_TYPE', `${at}.parties.consignor.partyIdentification.partyIdType must be 160 (customer number)`);
    if (digits && (!/^\d+$/.test(customerNumber) || !digits.includes(customerNumber.length))) {
      fault(
        'INVALID_VALUE',
        'CUSTOMER_NUMBER',
        `Customer number ${customerNumber} must have ${digits.join(' or ')} digits for issuer code ${consignor.issuerCode}`,
      );
    } else if (!customerNumbers.has(customerNumber)) {
      fault('INVALID_VALUE', 'CUSTOMER_NUMBER', `Customer number ${customerNumber} has no agreement with issuer code ${consignor.issuerCode}`);
    }
    if (!consignee) {
      fault('MANDATORY_FIELDS_MISSING', 'CONSIGNEE', `${at}.parties.consignee is a required field for messageFunction Instruction`);
      return faults;
    }
    if (!Object.values(basicServiceCodes).includes(code as never))
      fault('INVALID_VALUE', 'BASIC_SERVICE_CODE', `basicServiceCode ${code} is not a valid service`);
    if ((endpoint === 'returns') !== (code === basicServiceCodes.returnDropOff)) {
      fault(
        'INVALID_VALUE',
        'BASIC_SERVICE_CODE',
        endpoint === 'returns' ? `basicServiceCode ${code} is not a return drop off service` : `basicServiceCode ${code} must be booked as a return`,
      );
    }
    for (const party of [consignor.party, consignee.party, deliveryParty?.party]) {
      if (party && unknownPostalCodes.has(party.address.postalCode)) {
        fault('INVALID_VALUE', 'POSTAL_CODE', `Postal code ${party.address.postalCode} is not valid for country ${party.address.countryCode}`);
      }
    }
    const contact = consignee.party.contact ?? {};
    const country = consignee.party.address.countryCode;
    if (extra.has(adds.notificationBySms) && !contact.smsNo)
      fault('MANDATORY_FIELDS_MISSING', 'SMS_NO', 'Additional service A3 (Notification by SMS) requires smsNo in the consignee party');
    if (extra.has(adds.notificationByEmail) && !contact.emailAddress)
      fault('MANDATORY_FIELDS_MISSING', 'EMAIL', 'Additional service A4 (Notification by E-mail) requires emailAddress in the consignee party');
    if (extra.has(adds.flexChange) && !contact.smsNo)
      fault('MANDATORY_FIELDS_MISSING', 'SMS_NO', 'Additional service C7 (FlexChange) requires smsNo in the consignee party');
    if (contact.smsNo && !/^(\+|00)?\d{6,15}$/.test(contact.smsNo.replace(/[\s-]/g, '')))
      fault('INVALID_VALUE', 'SMS_NO', `smsNo ${contact.smsNo} is not a valid mobile number`);
    if (contact.emailAddress && !/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(contact.emailAddress))
      fault('INVALID_VALUE', 'EMAIL', `emailAddress ${contact.emailAddress} is not a valid e-mail address`);
    if (code === basicServiceCodes.myPackCollect) {
      const notices = [adds.notificationByLetter, adds.notificationBySms, adds.notificationByEmail].filter((notice) => extra.has(notice));
      if (notices.length === 0) fault('MANDATORY_FIELDS_MISSING', 'NOTIFICATION', 'MyPack Collect (19) requires one of the additional services A2, A3 or A4');
      if (extra.has(adds.notificationByLetter) && !nordic.has(country))
        fault('INVALID_VALUE', 'NOTIFICATION', 'Notification by Letter (A2) is not available outside the Nordics');
      if (!extra.has(adds.optionalServicePoint) && !['SE', 'DK'].includes(country))
        fault('MANDATORY_FIELDS_MISSING', 'SERVICE_POINT', `Optional Service Point (A7) is mandatory for MyPack Collect to ${country}`);
    }
    if (code === basicServiceCodes.myPackHome) {
      if (!extra.has(adds.flexChange) && !extra.has(adds.deliveryWithoutPod) && !extra.has(adds.sameDay))
        fault('MANDATORY_FIELDS_MISSING', 'FLEXCHANGE', 'MyPack Home (17) requires additional service C7 (FlexChange)');
      if (!contact.smsNo && !contact.emailAddress)
        fault('MANDATORY_FIELDS_MISSING', 'CONSIGNEE_CONTACT', 'MyPack Home (17) requires smsNo or emailAddress in the consignee party');
    }
    if (code === basicServiceCodes.parcel && (!contact.contactName || !(contact.phoneNo ?? contact.smsNo))) {
      fault('MANDATORY_FIELDS_MISSING', 'CONSIGNEE_CONTACT', 'PostNord Parcel (18) requires contactName and phoneNo in the consignee party');
    }
    if (code === basicServiceCodes.returnPickup && !(consignor.party.contact?.smsNo && contact.smsNo)) {
      fault('MANDATORY_FIELDS_MISSING', 'SMS_NO', 'PostNord Return Pickup (20) requires smsNo in both the consignor and the consignee party');
    }
    if (code === basicServiceCodes.returnDropOff) {
      if (!(consignor.party.contact?.smsNo && consignor.party.contact.emailAddress)) {
        fault('MANDATORY_FIELDS_MISSING', 'CONSIGNOR_CONTACT', 'PostNord Return Drop Off (24) requires smsNo and emailAddress in the consignor party');
      }
      if (consignee.partyIdentification?.partyIdType !== '160')
        fault('MANDATORY_FIELDS_MISSING', 'CONSIGNEE', 'PostNord Return Drop Off (24) requires the customer number in the consignee party');
    }
    // An export from the EU must be declared to customs with the booking; a postal parcel on a CN22/CN23.
    const from = consignor.party.address.countryCode;
    if (euCountries.has(from) && !euCountries.has(country)) {
      const postal = code === basicServiceCodes.postpaketUtrikes;
      const declared = postal ? (shipment.customsDeclarationCN22 ?? shipment.customsDeclarationCN23) : shipment.customsInvoice;
      if (!declared) {
        fault(
          'MANDATORY_FIELDS_MISSING',
          'CUSTOMS_DECLARATION',
          `${at}: a shipment from ${from} to ${country} requires ${postal ? 'customsDeclarationCN22 or customsDeclarationCN23' : 'customsInvoice'}`,
        );
      } else if (shipment.customsInvoice && !shipment.customsInvoice.seller.eoriNo) {
        fault('MANDATORY_FIELDS_MISSING', 'EORI', `${at}.customsInvoice.seller.eoriNo is required for an export declaration`);
      }
    } else if (code === basicServiceCodes.postpaketUtrikes && nordic.has(country)) {
      fault('INVALID_VALUE', 'BASIC_SERVICE_CODE', `Postpaket Utrikes (91) is not available to ${country}`);
    }
    if (extra.has(adds.optionalServicePoint)) {
      const id = deliveryParty?.partyIdentification;
      if (!id || id.partyIdType !== '156') {
        fault('MANDATORY_FIELDS_MISSING', 'DELIVERY_PARTY', 'Additional service A7 (Optional Service Point) requires a deliveryParty with partyIdType 156');
      } else {
        const point = points.find((candidate) => candidate.servicePointId === id.partyId);
        if (!point) fault('INVALID_VALUE', 'SERVICE_POINT', `Service point ${id.partyId} does not exist`);
        else if (point.closed) fault('INVALID_VALUE', 'SERVICE_POINT', `Service point ${id.partyId} is closed and cannot receive deliveries`);
        else if (deliveryParty.party.address.postalCode !== point.deliveryAddress?.postalCode) {
          fault('INVALID_VALUE', 'DELIVERY_PARTY', `The deliveryParty address must be the delivery address of service point ${id.partyId}`);
        }
      }
    }
    return faults;
  }

  async function printout(itemId: string, basicServiceCode: string, format: 'pdf' | 'zpl', paperSize: PdfPaperSize): Promise<PostnordLabelPrintout> {
    const data = format === 'pdf' ? (await labelPdf(itemId, paperSize)).toString('base64') : Buffer.from(labelZpl(itemId)).toString('base64');
    state.labels.push({ itemId, format, data });
    return {
      itemIds: [{ itemIds: itemId, basicServiceCode, status: 'OK' }],
      printout: { id: `${itemId}-${format}`, type: 'LABEL', labelFormat: format.toUpperCase(), encoding: 'base64', data },
    };
  }

  async function labelsByIds(format: 'pdf' | 'zpl', query: Record<string, string>, body: unknown): Promise<Answer> {
    const parsed = postnordLabelsByIdsRequestSchema.safeParse(body);
    if (!parsed.success) return badRequest('Invalid indata object ids', zodFaults(parsed.error));
    const paperSize = (query.paperSize as PdfPaperSize | undefined) ?? 'A4';
    const answer: PostnordLabelPrintout[] = [];
    for (const { id } of parsed.data) {
      const booking = state.bookings.find((candidate) => candidate.items.some((item) => item.itemId === id));
      if (!booking) return badRequest('No labels found', [{ explanationText: `Item id ${id} is unknown`, faultCode: 'API-004' }]);
      answer.push(await printout(id, booking.basicServiceCode, format, paperSize));
    }
    return { status: 200, body: answer };
  }

  function tracked(booking: FakeBooking): PostnordTrackedShipment {
    const order: PostnordTrackingStatus[] = [
      'RETURNED',
      'DELIVERY_IMPOSSIBLE',
      'DELIVERY_REFUSED',
      'STOPPED',
      'DELAYED',
      'EN_ROUTE',
      'AVAILABLE_FOR_DELIVERY',
      'INFORMED',
      'DELIVERED',
    ];
    const statuses = new Set(booking.items.map((item) => item.status));
    return {
      shipmentId: booking.shipmentId,
      uri: `/ntt-service-rest/api/shipment/${booking.shipmentId}/0`,
      customerNumber: booking.customerNumber,
      status: statuses.size === 1 ? booking.items[0]?.status : order.find((status) => statuses.has(status)),
      service: { code: booking.basicServiceCode, name: `Service ${booking.basicServiceCode}` },
      shipmentReferences: booking.reference ? [{ value: booking.reference, type: 'CU', name: "Consignor's reference" }] : [],
      items: booking.items.map((item) => ({ itemId: item.itemId, status: item.status, eventStatus: item.status, events: item.events })),
    };
  }

  async function handle(req: IncomingMessage, url: URL, body: unknown): Promise<Answer> {
    const path = url.pathname;
    const query = Object.fromEntries(url.searchParams);
    const key = query.apikey;
    if (!key)
      return { status: 401, body: error('Authentication token is missing/invalid', [{ faultCode: 'API-005', explanationText: 'Missing parameter apikey' }]) };
    if (key !== apiKey) {
      return switches.authRefusal === 'gateway'
        ? { status: 403, body: { error: { status_code: 403, error_type: 'Forbidden', message: 'Invalid API Key', xrequestid: `fake${sequence}` } } }
        : { status: 403, body: error('Invalid API Key', [{ faultCode: 'API-010', explanationText: 'The apikey is not valid for this API' }]) };
    }
    const bookMatch = /^\/rest\/shipment\/v3\/(edi|returns\/edi)\/labels\/(pdf|zpl)$/.exec(path);
    if (bookMatch && req.method === 'POST') {
      if (!jsonBody(req)) return badRequest('Unsupported content type', [{ explanationText: 'Content-Type must be application/json' }]);
      return book(bookMatch[1] === 'edi' ? 'edi' : 'returns', bookMatch[2] as 'pdf' | 'zpl', query, body);
    }
    const labelsMatch = /^\/rest\/shipment\/v3\/labels\/ids\/(pdf|zpl)$/.exec(path);
    if (labelsMatch && req.method === 'POST') {
      if (!jsonBody(req)) return badRequest('Unsupported content type', [{ explanationText: 'Content-Type must be application/json' }]);
      return labelsByIds(labelsMatch[1] as 'pdf' | 'zpl', query, body);
    }
    if (req.method !== 'GET') return { status: 405, body: error('Method Not Allowed') };
    if (path === '/rest/shipment/v3/edi/labels/manage/health') return { status: 200, body: { status: 'UP', name: 'edi-labels' } };
    if (path === '/rest/businesslocation/v5/servicepoints/nearest/byaddress') {
      const parsed = postnordNearestByAddressQuerySchema.safeParse(query);
      if (!parsed.success) return badRequest('Invalid query parameter', zodFaults(parsed.error));
      if (parsed.data.postalCode && unknownPostalCodes.has(parsed.data.postalCode)) {
        return badRequest('Invalid postal code', [
          {
            faultCode: 'API-006',
            explanationText: `No address found for postal code ${parsed.data.postalCode}`,
            paramValues: [{ param: 'postalCode', value: parsed.data.postalCode }],
          },
        ]);
      }
      const count = Number(parsed.data.numberOfServicePoints ?? '5');
      const found = points.filter((point) => !point.closed && point.visitingAddress?.countryCode === parsed.data.countryCode).slice(0, count);
      return { status: 200, body: { servicePointInformationResponse: { servicePoints: found.map(({ closed: _closed, ...point }) => point) } } };
    }
    if (path === '/rest/businesslocation/v5/servicepoints/ids') {
      const parsed = postnordServicePointsByIdsQuerySchema.safeParse(query);
      if (!parsed.success) return badRequest('Invalid query parameter', zodFaults(parsed.error));
      const ids = parsed.data.ids.split(',');
      // Closed points are still found by id: a checkout may have kept one.
      const found = points.filter((point) => ids.includes(point.servicePointId) && point.visitingAddress?.countryCode === parsed.data.countryCode);
      return { status: 200, body: { servicePointInformationResponse: { servicePoints: found.map(({ closed: _closed, ...point }) => point) } } };
    }
    if (query.locale !== undefined && !(trackingLocales as readonly string[]).includes(query.locale))
      return badRequest('Invalid locale', [{ explanationText: `locale ${query.locale} is not allowed` }]);
    const byId = /^\/rest\/shipment\/v7\/trackandtrace\/id\/([^/]+)\/public$/.exec(path);
    if (byId) {
      const id = decodeURIComponent(byId[1] ?? '');
      if (!trackableId.test(id))
        return badRequest('Invalid id', [
          { faultCode: 'API-006', explanationText: `id ${id} must be 10-35 characters A-Z, a-z, 0-9`, paramValues: [{ param: 'id', value: id }] },
        ]);
      const booking = state.bookings.find((candidate) => candidate.shipmentId === id || candidate.items.some((item) => item.itemId === id));
      return { status: 200, body: { TrackingInformationResponse: { shipments: booking ? [tracked(booking)] : [] } } };
    }
    const byReference = /^\/rest\/shipment\/v7\/trackandtrace\/customernumber\/([^/]+)\/reference\/([^/]+)\/public$/.exec(path);
    if (byReference) {
      const customerNumber = decodeURIComponent(byReference[1] ?? '');
      const reference = decodeURIComponent(byReference[2] ?? '');
      const found = state.bookings.filter((booking) => booking.customerNumber === customerNumber && booking.reference === reference);
      return { status: 200, body: { TrackingInformationResponse: { shipments: found.map(tracked) } } };
    }
    return { status: 404, body: error('Resource not found', [{ explanationText: `No resource at ${path}` }]) };
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://fake');
        const rawBody = Buffer.concat(chunks).toString('utf8');
        let body: unknown = undefined;
        let badJson = false;
        if (rawBody !== '') {
          try {
            body = JSON.parse(rawBody);
          } catch {
            badJson = true;
          }
        }
        state.requests.push({ method: req.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), body });
        const isBooking = /\/labels\/(pdf|zpl)$/.test(url.pathname) && !url.pathname.includes('/labels/ids/');
        if (isBooking) state.bookingCalls += 1;
        let answer: Answer;
        if (rateLimit && rateLimit.left > 0) {
          rateLimit.left -= 1;
          answer = { status: 429, headers: { 'retry-after': String(rateLimit.retryAfter) }, body: error('Too Many Requests') };
        } else if (failures && failures.left > 0) {
          failures.left -= 1;
          answer = { status: failures.status, body: error(failures.status === 504 ? 'Gateway Timeout' : 'Service Unavailable') };
        } else if (badJson) {
          answer = badRequest('Malformed JSON', [{ explanationText: 'The request body is not valid JSON' }]);
        } else {
          answer = await handle(req, url, body);
          if (isBooking && answer.status === 200 && dropNextBooking) {
            dropNextBooking = false;
            answer = { ...answer, drop: true };
          }
        }
        if (switches.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, switches.delayMs));
        if (answer.drop) {
          req.socket.destroy();
          return;
        }
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(JSON.stringify(answer.body));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    state,
    switches,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Track & Trace times are local and carry no offset. */
export function stockholmTime(at: Date): string {
  return at.toLocaleString('sv-SE', { timeZone: 'Europe/Stockholm', hourCycle: 'h23' }).replace(' ', 'T');
}

function jsonBody(req: IncomingMessage): boolean {
  return (req.headers['content-type'] ?? '').toLowerCase().startsWith('application/json');
}

function error(message: string, faults?: PostnordFault[]): PostnordErrorResponse {
  return faults ? { message, compositeFault: { faults } } : { message };
}

function badRequest(message: string, faults: PostnordFault[]): Answer {
  return { status: 400, body: error(message, faults) };
}

/** Zod's findings in PostNord's words: the field path and what is wrong with it. */
function zodFaults(zodError: z.ZodError): PostnordFault[] {
  return zodError.issues.map((issue) => {
    const path = issue.path
      .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
      .join('')
      .replace(/^\./, '');
    const missing = issue.code === 'invalid_type' && issue.input === undefined;
    return {
      faultCode: missing ? 'API-005' : 'API-006',
      explanationText: missing ? `${path} is a required field` : `${path}: ${issue.message}`,
      paramValues: [{ param: path, value: issue.input === undefined ? '' : JSON.stringify(issue.input) }],
      faultReferences: [{ key: 'CustomerOriginValidationError.type', value: missing ? 'MANDATORY_FIELDS_MISSING' : 'INVALID_VALUE' }],
    };
  });
}

/** Page sizes in points: the paper sizes of the PDF booking; LABEL is the 105 × 190 mm label itself. */
const mm = 72 / 25.4;
export const fakePaperPoints: Record<PdfPaperSize, [number, number]> = {
  A4: [595.28, 841.89],
  A5: [419.53, 595.28],
  A6: [297.64, 419.53],
  LETTER: [612, 792],
  LABEL: [105 * mm, 190 * mm],
};

async function labelPdf(itemId: string, paperSize: PdfPaperSize): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const [width, height] = fakePaperPoints[paperSize];
  const page = doc.addPage([width, height]);
  page.drawText('PostNord (fake)', { x: 20, y: height - 40, size: 16, font });
  page.drawText(itemId, { x: 20, y: height - 70, size: 12, font });
  // A fixed date keeps the bytes of one label the same on every call.
  doc.setCreationDate(new Date(0));
  doc.setModificationDate(new Date(0));
  return Buffer.from(await doc.save());
}

/** 105 × 190 mm at 8 dots per mm, PostNord's standard ZPL label. */
function labelZpl(itemId: string): string {
  return `^XA^PW840^LL1520^CI28^FO40,40^A0N,48,48^FDPostNord (fake)^FS^FO40,120^BY3^BCN,200,Y,N,N^FD${itemId}^FS^XZ\n`;
}
