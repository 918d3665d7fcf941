/**
 * A local GLS on 127.0.0.1 (the machine cannot reach GLS): the OAuth token endpoint, ShipIT's
 * shipments, cancel, reprint, find-by-reference and ParcelShop search, and Track and Trace V1, at their
 * documented paths. Requests are checked with the contract's schemas and refused the way GLS documents
 * it (ShipIT: 400 with `error`/`message` headers; the gateway: a JSON fault), so a request the real GLS
 * would refuse fails the test. Bookings are kept, so cancel, lookup and tracking answer about them.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { z } from 'zod';
import type { parcelShopSchema } from './contract';
import {
  DEPOSIT_SERVICE,
  GLS_MEDIA_TYPE,
  endOfDayQuerySchema,
  SHOP_DELIVERY_SERVICE,
  TRACK_BATCH_LIMIT,
  findParcelsRequestSchema,
  glsFlagServiceNames,
  parcelShopSearchSchema,
  reprintRequestSchema,
  shipmentRequestSchema,
  tokenRequestSchema,
  type GlsAddress,
  type GlsParcelStatus,
  type GlsShipmentRequest,
  type GlsTemplateSet,
  type GlsTrackEvent,
} from './contract';
import { faultQueue, parseJson, readBody, splitOnce } from '../platform/fakeKit';

export type GlsOperation = 'token' | 'book' | 'cancel' | 'reprint' | 'findParcels' | 'parcelShops' | 'track' | 'endOfDay';

export type GlsFault =
  | { kind: 'serverError'; status?: number }
  | { kind: 'rateLimit'; retryAfterSeconds: number }
  /** Answers normally, this much later (a booking is made before the wait). */
  | { kind: 'delay'; ms: number }
  /** Books, then closes the connection without an answer. */
  | { kind: 'dropAfterBooking' };

/** A ParcelShop as ShipIT sends it (coordinates and distance as strings). */
export type FakeGlsShop = z.input<typeof parcelShopSchema>;

export interface FakeGlsParcel {
  trackId: string;
  parcelNumber: string;
  unitReference: string[];
  weight: number;
  status: GlsParcelStatus;
  events: GlsTrackEvent[];
}

export interface FakeGlsShipment {
  reference: string[];
  product: string;
  request: GlsShipmentRequest;
  parcels: FakeGlsParcel[];
  labelFormat: string;
  templateSet: GlsTemplateSet;
  createdAt: Date;
}

export interface FakeGlsState {
  shipments: FakeGlsShipment[];
  /** Requests received per operation, whatever the answer. */
  counts: Record<GlsOperation, number>;
  /** Bookings made (a booking dropped on the way back counts too). */
  bookingsMade: number;
  requests: { operation: GlsOperation | 'unknown'; method: string; path: string; status: number | null }[];
  /** Bodies of the createParcels requests that reached validation, newest last. */
  bookingBodies: unknown[];
  shops: FakeGlsShop[];
  /** The shipping dates closed with end of day, in the order asked. */
  closedDays: string[];
  /** Every label handed out, base64, by TrackID (reprints hand out the same bytes). */
  labels: Map<string, { data: string; format: string }>;
  /** Makes every token issued so far invalid (an expired or revoked token). */
  expireTokens(): void;
  /** Moves a parcel (TrackID or parcel number) on, adding the event GLS would show. */
  scan(parcel: string, status: GlsParcelStatus, at?: Date, location?: { city: string; postalCode: string; country: string }): void;
  findParcel(parcel: string): FakeGlsParcel | undefined;
}

export interface FakeGlsSwitches {
  /** The next `times` calls of `operation` (or of any operation) meet `fault`. */
  add(operation: GlsOperation | 'any', fault: GlsFault, times?: number): void;
  clear(): void;
}

export interface FakeGls {
  /** Give this as the carrier's `apiBaseUrl`: the documented paths follow it. */
  url: string;
  clientId: string;
  clientSecret: string;
  contactId: string;
  state: FakeGlsState;
  switches: FakeGlsSwitches;
  close(): Promise<void>;
}

export interface FakeGlsOptions {
  clientId?: string;
  clientSecret?: string;
  contactId?: string;
  tokenLifetimeSeconds?: number;
}

interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** JSON unless `text` is given. */
  body?: unknown;
  text?: string;
}

const SHIPIT = '/shipit-farm/v1/backend/rs';
const A6_POINTS = { width: 297.64, height: 419.53 };

/** PREADVICE and friends with event codes in Track and Trace's own form (group.detail). */
const scanEvents: Record<GlsParcelStatus, { code: string; description: string }> = {
  PLANNEDPICKUP: { code: 'PICKUP.PLANNED', description: 'A pickup of the parcel is planned.' },
  INPICKUP: { code: 'PICKUP.DRIVER', description: 'A driver is on the way to pick the parcel up.' },
  NOTPICKEDUP: { code: 'PICKUP.FAILED', description: 'The parcel could not be picked up.' },
  PREADVICE: { code: 'INTIAL.PREADVICE', description: 'GLS has the parcel data; the parcel itself has not been handed over yet.' },
  INTRANSIT: { code: 'INTIAL.NORMAL', description: 'GLS has received the parcel.' },
  INWAREHOUSE: { code: 'INWARE.NORMAL', description: 'The parcel is in the GLS depot.' },
  INDELIVERY: { code: 'INDELI.NORMAL', description: 'The parcel is out for delivery today.' },
  DELIVEREDPS: { code: 'DELIVD.PARCELSHOP', description: 'The parcel was delivered to the ParcelShop.' },
  DELIVERED: { code: 'DELIVD.NORMAL', description: 'The parcel was delivered.' },
  NOTDELIVERED: { code: 'NOTDEL.NORMAL', description: 'The parcel could not be delivered.' },
  CANCELED: { code: 'CANCEL.NORMAL', description: 'The parcel data was deleted from the GLS system.' },
  FINAL: { code: 'FINAL.NORMAL', description: 'The parcel history is closed.' },
};

/** ShipIT's rule of thumb for a parcel; heavier goes as freight. */
const MAX_PARCEL_KG = 31.5;
const postalCodeRules: Record<string, RegExp> = { DE: /^\d{5}$/, AT: /^\d{4}$/, DK: /^\d{4}$/, NL: /^\d{4} ?[A-Z]{2}$/, FR: /^\d{5}$/, SE: /^\d{3} ?\d{2}$/ };

const hour = (hh: number, mm = 0) => (hh - 1) * 3_600_000 + mm * 60_000;

/** A few ParcelShops around Neuenstein, with coordinates and opening hours the way ShipIT sends them. */
function defaultShops(): FakeGlsShop[] {
  // ShipIT writes "no break" as a break from midnight to midnight, both -3600000.
  const noBreak = { OpeningHours: [{ From: hour(0), To: hour(0) }] };
  const weekdays = (from: number, to: number, lunch?: [number, number]) =>
    (['MON', 'TUE', 'WED', 'THU', 'FRI'] as const).map((day) => ({
      DayOfWeek: day,
      OpeningHours: { OpeningHours: [{ From: from, To: to }] },
      Breaks: lunch ? { OpeningHours: [{ From: lunch[0], To: lunch[1] }] } : noBreak,
    }));
  return [
    {
      ParcelShopID: 'GLS_DE-2760000001',
      Location: { Latitude: '50.9271', Longitude: '9.5432' },
      Address: { Name1: 'Kiosk am Markt', CountryCode: 'DE', ZIPCode: '36286', City: 'Neuenstein', Street: 'Marktplatz', StreetNumber: '3' },
      WorkingDay: [...weekdays(hour(8), hour(18, 30)), { DayOfWeek: 'SAT', OpeningHours: { OpeningHours: [{ From: hour(9), To: hour(13) }] } }],
      AirlineDistance: '420',
    },
    {
      ParcelShopID: 'GLS_DE-2760000002',
      Location: { Latitude: '50.8684', Longitude: '9.7081' },
      Address: { Name1: 'Schreibwaren Müller', CountryCode: 'DE', ZIPCode: '36251', City: 'Bad Hersfeld', Street: 'Breitenstraße', StreetNumber: '12' },
      WorkingDay: weekdays(hour(9), hour(19), [hour(12, 30), hour(14)]),
      AirlineDistance: '1850',
    },
    {
      ParcelShopID: 'GLS_DE-2760000003',
      Location: { Latitude: '50.9452', Longitude: '9.4893' },
      Address: { Name1: 'Tankstelle Nord', CountryCode: 'DE', ZIPCode: '36286', City: 'Neuenstein', Street: 'Industriestraße', StreetNumber: '40' },
      WorkingDay: [...weekdays(hour(6), hour(22)), { DayOfWeek: 'SAT', OpeningHours: { OpeningHours: [{ From: hour(7), To: hour(22) }] } }],
      AirlineDistance: '2600',
    },
  ];
}

export async function startFakeGls(options: FakeGlsOptions = {}): Promise<FakeGls> {
  const clientId = options.clientId ?? 'gls-fake-client';
  const clientSecret = options.clientSecret ?? 'gls-fake-secret';
  const contactId = options.contactId ?? '276a4Fk0Qm';
  const lifetime = options.tokenLifetimeSeconds ?? 14_400;
  const tokens = new Map<string, number>();
  const faults = faultQueue<GlsOperation, GlsFault>();
  let parcelCounter = 0;

  const state: FakeGlsState = {
    shipments: [],
    counts: { token: 0, book: 0, cancel: 0, reprint: 0, findParcels: 0, parcelShops: 0, track: 0, endOfDay: 0 },
    closedDays: [],
    bookingsMade: 0,
    requests: [],
    bookingBodies: [],
    shops: defaultShops(),
    labels: new Map(),
    expireTokens: () => tokens.clear(),
    findParcel: (id) => state.shipments.flatMap((shipment) => shipment.parcels).find((parcel) => parcel.trackId === id || parcel.parcelNumber === id),
    scan(id, status, at = new Date(), location) {
      const parcel = state.findParcel(id);
      if (!parcel) throw new Error(`The fake GLS has no parcel ${id}`);
      parcel.status = status;
      parcel.events.unshift(trackEvent(status, at, location));
    },
  };

  const switches: FakeGlsSwitches = { add: faults.add, clear: faults.clear };
  const takeFault = faults.take;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake-gls');
    const body = await readBody(req);
    const route = routeOf(req.method ?? 'GET', url.pathname);
    const logged: FakeGlsState['requests'][number] = { operation: route?.operation ?? 'unknown', method: req.method ?? '', path: url.pathname, status: null };
    state.requests.push(logged);
    const send = (answer: Answer) => {
      logged.status = answer.status;
      if (res.destroyed) return;
      const isText = answer.text !== undefined;
      const contentType = isText ? 'text/plain' : route?.operation === 'token' || route?.operation === 'track' ? 'application/json' : GLS_MEDIA_TYPE;
      res.writeHead(answer.status, { 'content-type': contentType, ...answer.headers });
      res.end(isText ? answer.text : answer.body === undefined ? '' : JSON.stringify(answer.body));
    };
    if (!route) return send({ status: 404, body: { type: 'about:blank', title: 'Not Found', status: 404, detail: `No static resource ${url.pathname}.` } });
    state.counts[route.operation]++;

    const fault = takeFault(route.operation);
    if (fault?.kind === 'serverError') return send({ status: fault.status ?? 503, text: 'Service Unavailable' });
    if (fault?.kind === 'rateLimit') {
      return send({
        status: 429,
        headers: { 'retry-after': String(fault.retryAfterSeconds) },
        body: { fault: { faultstring: 'Rate limit quota violation. Quota limit exceeded.', detail: { errorcode: 'policies.ratelimit.QuotaViolation' } } },
      });
    }

    if (route.operation !== 'token') {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const expiresAt = token ? tokens.get(token) : undefined;
      if (!expiresAt || expiresAt < Date.now()) {
        return send({ status: 401, body: { fault: { faultstring: 'Invalid access token', detail: { errorcode: 'oauth.v2.InvalidAccessToken' } } } });
      }
      if (route.operation !== 'track') {
        const mediaError = checkMedia(req, route.method === 'POST' && route.operation !== 'cancel' && route.operation !== 'endOfDay');
        if (mediaError) return send(mediaError);
      }
    }

    const onBooked = async () => {
      if (fault?.kind === 'dropAfterBooking') {
        res.socket?.destroy();
        return true;
      }
      if (fault?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, fault.ms));
      return false;
    };
    if (fault?.kind === 'delay' && route.operation !== 'book') await new Promise((resolve) => setTimeout(resolve, fault.ms));

    switch (route.operation) {
      case 'token':
        return send(issueToken(req, body));
      case 'book': {
        const answer = await book(body);
        if (answer.status === 200 && (await onBooked())) return;
        return send(answer);
      }
      case 'cancel':
        return send(cancel(route.param ?? ''));
      case 'reprint':
        return send(reprint(body));
      case 'findParcels':
        return send(findParcels(body));
      case 'parcelShops':
        return send(parcelShops(body));
      case 'track':
        return send(track(route.param ?? ''));
      case 'endOfDay':
        return send(endOfDay(url.searchParams, body));
    }
  }

  function issueToken(req: IncomingMessage, body: string): Answer {
    if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return { status: 400, body: { errors: [{ message: 'Content type must be application/x-www-form-urlencoded', type: '400' }] } };
    }
    const form = tokenRequestSchema.safeParse(Object.fromEntries(new URLSearchParams(body)));
    if (!form.success) return { status: 400, body: { errors: [{ message: 'Unsupported or missing grant_type', type: '400' }] } };
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const [id, secret] = basic ? splitOnce(Buffer.from(basic, 'base64').toString('utf8'), ':') : [form.data.client_id, form.data.client_secret];
    if (id !== clientId || secret !== clientSecret) return { status: 400, body: { errors: [{ message: 'Invalid client identifier', type: '400' }] } };
    const token = randomBytes(24).toString('base64url');
    tokens.set(token, Date.now() + lifetime * 1000);
    return { status: 200, body: { token_type: 'Bearer', access_token: token, expires_in: lifetime } };
  }

  async function book(raw: string): Promise<Answer> {
    if (raw.trim() === '') return shipItFault('MANDATORY_PARAMETER_NOT_SET', 'The Mandatory parameter ShipmentRequestData is not set');
    const json = parseJson(raw);
    if (json === undefined) return { status: 400, text: 'com.fasterxml.jackson.core.JsonParseException: Unexpected character in ShipmentRequestData' };
    state.bookingBodies.push(json);
    const parsed = shipmentRequestSchema.safeParse(json);
    if (!parsed.success) return validationFault(parsed.error, json);
    const request = parsed.data;
    const shipment = request.Shipment;
    if (shipment.Shipper.ContactID !== contactId) {
      return invalidField('Shipment.Shipper.ContactID', shipment.Shipper.ContactID, 'Shipper does not exist or is not available for the user.');
    }
    for (const [path, address] of [
      ['Shipment.Consignee.Address', shipment.Consignee.Address],
      ['Shipment.Shipper.AlternativeShipperAddress', shipment.Shipper.AlternativeShipperAddress],
    ] as const) {
      const problem = address && addressProblem(path, address);
      if (problem) return problem;
    }
    if (shipment.Product === 'PARCEL' && shipment.ShipmentUnit.some((unit) => unit.Weight > MAX_PARCEL_KG)) {
      return invalidField(
        'ShipmentRequestData.Shipment.Product',
        shipment.Product,
        'No matching product available for shipper for the given input data (weight and addresses).',
      );
    }
    const serviceProblem = checkServices(request);
    if (serviceProblem) return serviceProblem;

    const { TemplateSet, LabelFormat } = request.PrintingOptions.ReturnLabels;
    if (LabelFormat !== 'PDF' && LabelFormat !== 'ZEBRA')
      return invalidField('PrintingOptions.ReturnLabels.LabelFormat', LabelFormat, 'Label format is not available for the user.');
    if (LabelFormat === 'ZEBRA' && !TemplateSet.startsWith('ZPL')) {
      return invalidField('PrintingOptions.ReturnLabels.TemplateSet', TemplateSet, 'The template set does not fit the label format ZEBRA.');
    }

    const createdAt = new Date();
    const parcels: FakeGlsParcel[] = shipment.ShipmentUnit.map((unit) => {
      parcelCounter++;
      return {
        trackId: trackIdFor(parcelCounter),
        parcelNumber: String(202_800_000_000 + parcelCounter),
        unitReference: unit.ShipmentUnitReference ?? [],
        weight: unit.Weight,
        status: 'PREADVICE',
        events: [trackEvent('PREADVICE', createdAt)],
      };
    });
    const stored: FakeGlsShipment = {
      reference: shipment.ShipmentReference ?? [],
      product: shipment.Product,
      request,
      parcels,
      labelFormat: LabelFormat,
      templateSet: TemplateSet,
      createdAt,
    };
    for (const parcel of parcels)
      state.labels.set(parcel.trackId, { data: await drawLabel(parcel, shipment.Consignee.Address, LabelFormat), format: LabelFormat });
    state.shipments.push(stored);
    state.bookingsMade++;
    return { status: 200, body: createdShipment(stored, parcels) };
  }

  function createdShipment(shipment: FakeGlsShipment, parcels: FakeGlsParcel[]) {
    return {
      CreatedShipment: {
        ShipmentReference: shipment.reference,
        ParcelData: parcels.map((parcel) => ({
          TrackID: parcel.trackId,
          ParcelNumber: parcel.parcelNumber,
          ShipmentUnitReference: parcel.unitReference,
          Barcodes: { Primary1D: parcel.parcelNumber, Primary1DPrint: true },
          RoutingInfo: {
            Tour: '1234',
            InboundSortingFlag: '003',
            FinalLocationCode: 'DE 777',
            HubLocation: 'esa',
            LastRoutingDate: isoDate(shipment.createdAt),
          },
        })),
        PrintData: parcels.map((parcel) => ({ Data: state.labels.get(parcel.trackId)!.data, LabelFormat: state.labels.get(parcel.trackId)!.format })),
        CustomerID: '2764200001',
        PickupLocation: 'DE 777',
        GDPR: ['Information on data protection: gls-group.eu/dataprotection'],
      },
    };
  }

  function addressProblem(path: string, address: GlsAddress): Answer | null {
    const rule = postalCodeRules[address.CountryCode];
    if (rule && !rule.test(address.ZIPCode ?? '')) {
      return invalidField(`${path}.ZIPCode`, address.ZIPCode ?? '', 'The ZIP code is not valid for the country.');
    }
    if (address.eMail !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(address.eMail)) {
      return invalidField(`${path}.eMail`, address.eMail, 'Shipment validation failed');
    }
    return null;
  }

  function checkServices(request: GlsShipmentRequest): Answer | null {
    const names: string[] = [];
    for (const entry of request.Shipment.Service ?? []) {
      if ('Service' in entry) {
        if (!(glsFlagServiceNames as readonly string[]).includes(entry.Service.ServiceName)) {
          return invalidField('Shipment.Service.ServiceName', entry.Service.ServiceName, 'Service is not available for the shipper.');
        }
        names.push(entry.Service.ServiceName);
      } else if ('ShopDelivery' in entry) {
        if (entry.ShopDelivery.ServiceName !== SHOP_DELIVERY_SERVICE)
          return invalidField('Shipment.Service.ShopDelivery.ServiceName', entry.ShopDelivery.ServiceName, 'Unknown service.');
        if (!state.shops.some((shop) => shop.ParcelShopID === entry.ShopDelivery.ParcelShopID)) {
          return invalidField('Shipment.Service.ShopDelivery.ParcelShopID', entry.ShopDelivery.ParcelShopID, 'ParcelShop not found.');
        }
        names.push(SHOP_DELIVERY_SERVICE);
      } else {
        if (entry.Deposit.ServiceName !== DEPOSIT_SERVICE)
          return invalidField('Shipment.Service.Deposit.ServiceName', entry.Deposit.ServiceName, 'Unknown service.');
        names.push(DEPOSIT_SERVICE);
      }
    }
    const has = (name: string) => names.includes(name);
    if (has(SHOP_DELIVERY_SERVICE) && (has(DEPOSIT_SERVICE) || has('service_addresseeonly'))) {
      const other = has(DEPOSIT_SERVICE) ? DEPOSIT_SERVICE : 'service_addresseeonly';
      return shipItFault('INVALID_FIELD_VALUE', `The services ${SHOP_DELIVERY_SERVICE} and ${other} can not be combined.`);
    }
    if (has('service_flexdelivery') && !request.Shipment.Consignee.Address.eMail) {
      return shipItFault(
        'MANDATORY_PARAMETER_NOT_SET',
        'The Mandatory parameter Shipment.Consignee.Address.eMail is not set (required by service_flexdelivery)',
      );
    }
    return null;
  }

  function cancel(trackId: string): Answer {
    const parcel = state.findParcel(trackId);
    if (!parcel || parcel.trackId !== trackId) return invalidField('TrackID', trackId, 'Parcel not found.');
    if (parcel.status === 'CANCELED') return { status: 200, body: { TrackID: trackId, Result: 'CANCELLED' } };
    if (parcel.status !== 'PREADVICE') return { status: 200, body: { TrackID: trackId, Result: 'SCANNED' } };
    state.scan(trackId, 'CANCELED');
    return { status: 200, body: { TrackID: trackId, Result: 'CANCELLED' } };
  }

  function reprint(raw: string): Answer {
    const json = parseJson(raw);
    const parsed = reprintRequestSchema.safeParse(json);
    if (!parsed.success) return validationFault(parsed.error, json);
    const parcel = state.findParcel(parsed.data.TrackID);
    const shipment = state.shipments.find((candidate) => parcel && candidate.parcels.includes(parcel));
    if (!parcel || !shipment || parcel.trackId !== parsed.data.TrackID) return invalidField('TrackID', parsed.data.TrackID, 'Parcel not found.');
    if (parcel.status === 'CANCELED') return invalidField('TrackID', parsed.data.TrackID, 'Parcel is cancelled.');
    return { status: 200, body: createdShipment(shipment, [parcel]) };
  }

  function findParcels(raw: string): Answer {
    const json = parseJson(raw);
    const parsed = findParcelsRequestSchema.safeParse(json);
    if (!parsed.success) return validationFault(parsed.error, json);
    const from = Date.parse(parsed.data.DateFrom);
    const to = Date.parse(parsed.data.DateTo);
    const items = state.shipments
      .filter(
        (shipment) => shipment.reference.includes(parsed.data.ShipmentReference) && shipment.createdAt.getTime() >= from && shipment.createdAt.getTime() <= to,
      )
      .flatMap((shipment) =>
        shipment.parcels.map((parcel) => ({
          TrackID: parcel.trackId,
          ParcelNumber: parcel.parcelNumber,
          ShipmentReference: shipment.reference,
          ShipmentUnitReference: parcel.unitReference,
          InitialDate: shipment.createdAt.toISOString(),
          Status: parcel.status,
        })),
      );
    return { status: 200, body: { UnitItems: items } };
  }

  function parcelShops(raw: string): Answer {
    const json = parseJson(raw);
    const parsed = parcelShopSearchSchema.safeParse(json);
    if (!parsed.success) return validationFault(parsed.error, json);
    const limit = Number(parsed.data.MaxNumberOfShops ?? '10');
    const shops = state.shops
      .filter((shop) => shop.Address.CountryCode === parsed.data.CountryCode)
      .sort((a, b) => Number(a.AirlineDistance ?? 0) - Number(b.AirlineDistance ?? 0))
      .slice(0, limit);
    return { status: 200, body: { ParcelShop: shops } };
  }

  /** getEndOfDayReport: the date is required; the report lists that day's shipments with their parcels. */
  function endOfDay(query: URLSearchParams, raw: string): Answer {
    if (raw.trim() !== '') return shipItFault('INVALID_FIELD_VALUE', 'The end of day report takes no request body');
    const parsed = endOfDayQuerySchema.safeParse(Object.fromEntries(query));
    if (!parsed.success) {
      const date = query.get('date');
      return date === null
        ? shipItFault('MANDATORY_PARAMETER_NOT_SET', 'The Mandatory parameter date is not set')
        : invalidField('date', date, 'Date format is yyyy-MM-dd.');
    }
    state.closedDays.push(parsed.data.date);
    const shipments = state.shipments
      .filter((shipment) => isoDate(shipment.createdAt) === parsed.data.date && shipment.parcels.some((parcel) => parcel.status !== 'CANCELED'))
      .map((shipment) => ({
        ShipmentReference: shipment.reference,
        Product: shipment.product,
        Consignee: shipment.request.Shipment.Consignee,
        Shipper: shipment.request.Shipment.Shipper,
        ShipmentUnit: shipment.parcels.map((parcel) => ({ TrackID: parcel.trackId, ParcelNumber: parcel.parcelNumber, Weight: parcel.weight })),
      }));
    return { status: 200, body: { Shipments: shipments } };
  }

  function track(list: string): Answer {
    const requested = list.split(',').filter(Boolean);
    if (requested.length > TRACK_BATCH_LIMIT) {
      return {
        status: 400,
        body: {
          type: 'about:blank',
          title: 'Bad Request',
          status: 400,
          detail: `Provided references of size '${requested.length}' is more than allowed limit of ${TRACK_BATCH_LIMIT}`,
        },
      };
    }
    return {
      status: 200,
      body: {
        parcels: requested.map((id) => {
          const parcel = state.findParcel(id);
          if (!parcel || parcel.parcelNumber !== id) return { requested: id, errorCode: 'E_404_01', errorMessage: 'Resource Not Found' };
          return {
            requested: id,
            unitno: parcel.parcelNumber,
            status: parcel.status,
            statusDateTime: parcel.events[0]?.eventDateTime,
            events: parcel.events,
          };
        }),
      },
    };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    clientId,
    clientSecret,
    contactId,
    state,
    switches,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function routeOf(method: string, path: string): { operation: GlsOperation; method: string; param?: string } | null {
  if (method === 'POST' && path === '/oauth2/v2/token') return { operation: 'token', method };
  if (method === 'POST' && path === `${SHIPIT}/shipments`) return { operation: 'book', method };
  const cancel = /^\/shipit-farm\/v1\/backend\/rs\/shipments\/cancel\/([^/]+)$/.exec(path);
  if (method === 'POST' && cancel) return { operation: 'cancel', method, param: decodeURIComponent(cancel[1]!) };
  if (method === 'POST' && path === `${SHIPIT}/shipments/reprintparcel`) return { operation: 'reprint', method };
  if (method === 'POST' && path === `${SHIPIT}/tracking/parcels`) return { operation: 'findParcels', method };
  if (method === 'POST' && path === `${SHIPIT}/parcelshop/address`) return { operation: 'parcelShops', method };
  if (method === 'POST' && path === `${SHIPIT}/shipments/endofday`) return { operation: 'endOfDay', method };
  const track = /^\/track-and-trace-v1\/tracking\/simple\/trackids\/([^/]+)$/.exec(path);
  if (method === 'GET' && track) return { operation: 'track', method, param: decodeURIComponent(track[1]!) };
  return null;
}

/** ShipIT consumes and produces its own media type only. */
function checkMedia(req: IncomingMessage, hasBody: boolean): Answer | null {
  const accept = req.headers.accept ?? '*/*';
  if (!/application\/glsVersion1\+json|application\/json|\*\/\*/.test(accept)) return { status: 406, text: '' };
  if (hasBody && !(req.headers['content-type'] ?? '').startsWith(GLS_MEDIA_TYPE)) return { status: 415, text: '' };
  return null;
}

/** ShipIT tells what is wrong in two response headers and an empty body. */
function shipItFault(error: string, message: string): Answer {
  return { status: 400, headers: { error, message: headerSafe(message) } };
}

function invalidField(field: string, value: string, reason: string): Answer {
  return shipItFault('INVALID_FIELD_VALUE', `Invalid field ${field}. Value ${value} is not a valid value. ${reason}`);
}

/** A schema failure as ShipIT words it; enum and unknown-field failures come from its JSON binding, as text. */
function validationFault(error: z.ZodError, input: unknown): Answer {
  const issue = error.issues[0]!;
  const path = issue.path.join('.') || 'ShipmentRequestData';
  const value = valueAt(input, issue.path);
  if (issue.code === 'unrecognized_keys') {
    return {
      status: 400,
      text: `com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException: Unrecognized field "${issue.keys[0]}" at ${path}, not marked as ignorable`,
    };
  }
  if (issue.code === 'invalid_value') {
    return {
      status: 400,
      text: `com.fasterxml.jackson.databind.exc.InvalidFormatException: Cannot deserialize value "${String(value)}" at ${path}: not one of the values accepted`,
    };
  }
  if (value === undefined) return shipItFault('MANDATORY_PARAMETER_NOT_SET', `The Mandatory parameter ${path} is not set`);
  if (issue.code === 'too_big') return invalidField(path, String(value), `Value is too long. Maximum is ${String(issue.maximum)}`);
  return invalidField(path, typeof value === 'object' ? JSON.stringify(value) : String(value), issue.message);
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function trackEvent(status: GlsParcelStatus, at: Date, location?: { city: string; postalCode: string; country: string }): GlsTrackEvent {
  return {
    code: scanEvents[status].code,
    description: scanEvents[status].description,
    city: location?.city ?? '',
    postalCode: location?.postalCode ?? '',
    country: location?.country ?? 'DE',
    eventDateTime: basicOffsetTime(at),
  };
}

/** Track and Trace writes times as 2024-10-07T10:46:14+0200; the fake keeps UTC. */
function basicOffsetTime(at: Date): string {
  return `${at.toISOString().slice(0, 19)}+0000`;
}

function trackIdFor(counter: number): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
  let id = '';
  for (let n = counter * 7919 + 1_000_003; id.length < 8; n = Math.floor(n / alphabet.length) + 17) id += alphabet[n % alphabet.length];
  return id;
}

async function drawLabel(parcel: FakeGlsParcel, consignee: GlsAddress, format: string): Promise<string> {
  if (format === 'ZEBRA') {
    const zpl = [
      '^XA',
      '^CI28',
      '^FO40,40^A0N,50,50^FDGLS^FS',
      `^FO40,120^A0N,30,30^FD${consignee.Name1}^FS`,
      `^FO40,160^A0N,30,30^FD${consignee.ZIPCode ?? ''} ${consignee.City}^FS`,
      `^FO40,240^BY3^BCN,120,Y,N,N^FD${parcel.parcelNumber}^FS`,
      `^FO40,420^A0N,30,30^FDTrack ID ${parcel.trackId}^FS`,
      '^XZ',
      '',
    ].join('\n');
    return Buffer.from(zpl, 'utf8').toString('base64');
  }
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([A6_POINTS.width, A6_POINTS.height]);
  page.drawText('GLS', { x: 20, y: 380, size: 28, font });
  page.drawText(`Track ID ${parcel.trackId}`, { x: 20, y: 340, size: 12, font });
  page.drawText(`Parcel ${parcel.parcelNumber}`, { x: 20, y: 322, size: 12, font });
  page.drawText(`${consignee.ZIPCode ?? ''} ${consignee.City}`, { x: 20, y: 300, size: 12, font });
  // A fixed creation date keeps the bytes the same however often the label is reprinted.
  pdf.setCreationDate(new Date(0));
  pdf.setModificationDate(new Date(0));
  return Buffer.from(await pdf.save()).toString('base64');
}

/** Header values carry no line breaks or non-Latin-1 characters. */
const headerSafe = (text: string) => text.replace(/[\r\n]+/g, ' ').replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

const isoDate = (at: Date) => at.toISOString().slice(0, 10);
