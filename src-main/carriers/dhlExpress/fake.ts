/**
 * A local MyDHL API on 127.0.0.1 (the machine cannot reach DHL): create shipment, tracking, pickups
 * (create, cancel) and address validation at their documented paths, under HTTP Basic authentication.
 * Requests are checked with the contract's schemas and DHL's own rules (customs declaration of an
 * export, paperless trade, value-added services, products per lane) and refused in MyDHL's problem
 * shape, so a request the real DHL would refuse fails the test. Bookings and pickups are kept, so
 * tracking and cancel answer about them.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { z } from 'zod';
import {
  PAPERLESS_TRADE_SERVICE,
  TRACK_BATCH_LIMIT,
  DHL_TIMESTAMP,
  pickupRequestSchema,
  shipmentRequestSchema,
  type DhlPickupRequest,
  type DhlShipmentRequest,
  type DhlTrackingEvent,
} from './contract';
import { faultQueue, parseJson, readBody, splitOnce } from '../platform/fakeKit';

export type DhlOperation = 'book' | 'track' | 'bookPickup' | 'cancelPickup' | 'addressValidate';

export type DhlFault =
  | { kind: 'serverError'; status?: number }
  | { kind: 'rateLimit'; retryAfterSeconds: number }
  /** Answers normally, this much later (a booking is made before the wait). */
  | { kind: 'delay'; ms: number }
  /** Books, then closes the connection without an answer. */
  | { kind: 'dropAfterBooking' };

export interface FakeDhlPiece {
  trackingNumber: string;
  referenceNumber: number;
}

export interface FakeDhlShipment {
  waybill: string;
  references: string[];
  request: DhlShipmentRequest;
  pieces: FakeDhlPiece[];
  /** Base64 label per piece (or one for the shipment), as handed out. */
  labels: { packageReferenceNumber: number | null; imageFormat: string; content: string }[];
  events: DhlTrackingEvent[];
  createdAt: Date;
}

export interface FakeDhlPickup {
  dispatchConfirmationNumber: string;
  request: DhlPickupRequest;
  status: 'booked' | 'cancelled';
  cancelledBy: { requestorName: string; reason: string } | null;
}

export interface FakeDhlState {
  shipments: FakeDhlShipment[];
  pickups: FakeDhlPickup[];
  /** Requests received per operation, whatever the answer. */
  counts: Record<DhlOperation, number>;
  /** Bookings made (a booking dropped on the way back counts too). */
  bookingsMade: number;
  requests: { operation: DhlOperation | 'unknown'; method: string; path: string; query: string; status: number | null }[];
  /** Bodies of the create-shipment requests that reached validation, newest last. */
  bookingBodies: unknown[];
  /** Whether the account may send paperless trade (WY). */
  paperlessAccount: boolean;
  /** Adds a checkpoint to a waybill, newest first. */
  scan(waybill: string, typeCode: string, description: string, at?: Date, area?: string): void;
  findShipment(waybill: string): FakeDhlShipment | undefined;
}

export interface FakeDhlSwitches {
  /** The next `times` calls of `operation` (or of any operation) meet `fault`. */
  add(operation: DhlOperation | 'any', fault: DhlFault, times?: number): void;
  clear(): void;
}

export interface FakeDhl {
  /** Give this as the carrier's `apiBaseUrl`: the documented paths follow it. */
  url: string;
  username: string;
  password: string;
  accountNumber: string;
  state: FakeDhlState;
  switches: FakeDhlSwitches;
  close(): Promise<void>;
}

export interface FakeDhlOptions {
  username?: string;
  password?: string;
  accountNumber?: string;
}

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** The EU customs union as far as the fake needs it; anything else is an export from it. */
const EU = new Set('AT BE BG HR CY CZ DK EE FI FR DE GR IE IT LV LT LU MT NL PL PT RO SK SI ES SE'.split(' '));
/** Value-added services the fake's account has; others are refused as DHL refuses them for a lane. */
const KNOWN_SERVICES = new Set(['II', 'AA', 'DD', 'SF', 'NN', 'WY', 'PZ', 'SX']);
const LABEL_TEMPLATES = new Set(['ECOM26_84_001', 'ECOM26_84_A4_001', 'ECOM_TC_A4', 'ECOM26_A6_002', 'ECOM26_84CI_001', 'ECOM26_84CI_002', 'ECOM26_84CI_003']);
const PRODUCTS = new Set(['P', 'D', 'U', 'K', 'T', 'N', 'W', 'H', 'E', 'Y', 'X', '8', '7']);
const postalCodeRules: Record<string, RegExp> = { DK: /^\d{4}$/, DE: /^\d{5}$/, NO: /^\d{4}$/, SE: /^\d{3} ?\d{2}$/, US: /^\d{5}(-\d{4})?$/ };
/** Offsets the address validation answers with (winter time). */
const GMT_OFFSETS: Record<string, string> = { DK: '+01:00', DE: '+01:00', NO: '+01:00', SE: '+01:00', GB: '+00:00', US: '-05:00' };
const A6_POINTS = { width: 297.64, height: 419.53 };
const A4_POINTS = { width: 595.28, height: 841.89 };

const problem = (status: number, detail: string, title = 'Bad request', instance = '/expressapi/shipments'): Answer => ({
  status,
  headers: { 'content-type': 'application/problem+json' },
  body: { instance, detail, title, message: status === 422 ? 'Unprocessable Entity' : title, status: String(status) },
});

export async function startFakeDhl(options: FakeDhlOptions = {}): Promise<FakeDhl> {
  const username = options.username ?? 'dhl-fake-user';
  const password = options.password ?? 'dhl-fake-password';
  const accountNumber = options.accountNumber ?? '123456789';
  const faults = faultQueue<DhlOperation, DhlFault>();
  let waybillCounter = 0;
  let pickupCounter = 0;

  const state: FakeDhlState = {
    shipments: [],
    pickups: [],
    counts: { book: 0, track: 0, bookPickup: 0, cancelPickup: 0, addressValidate: 0 },
    bookingsMade: 0,
    requests: [],
    bookingBodies: [],
    paperlessAccount: true,
    findShipment: (waybill) => state.shipments.find((shipment) => shipment.waybill === waybill),
    scan(waybill, typeCode, description, at = new Date(), area) {
      const shipment = state.findShipment(waybill);
      if (!shipment) throw new Error(`The fake DHL has no waybill ${waybill}`);
      shipment.events.push(checkpoint(typeCode, description, at, area));
    },
  };

  const switches: FakeDhlSwitches = { add: faults.add, clear: faults.clear };
  const takeFault = faults.take;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake-dhl');
    const body = await readBody(req);
    const route = routeOf(req.method ?? 'GET', url.pathname);
    const logged: FakeDhlState['requests'][number] = {
      operation: route?.operation ?? 'unknown',
      method: req.method ?? '',
      path: url.pathname,
      query: url.search,
      status: null,
    };
    state.requests.push(logged);
    const send = (answer: Answer) => {
      logged.status = answer.status;
      if (res.destroyed) return;
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    };
    if (!route) return send(problem(404, `No resource at ${url.pathname}`, 'Not Found', url.pathname));
    state.counts[route.operation]++;

    const fault = takeFault(route.operation);
    if (fault?.kind === 'serverError') {
      return send(problem(fault.status ?? 503, '999: Process failure occurred. Please try again later.', 'Internal Server Error', url.pathname));
    }
    if (fault?.kind === 'rateLimit') {
      return send({
        ...problem(429, 'Too many requests: the rate limit of your API key is exceeded.', 'Too Many Requests', url.pathname),
        headers: { 'retry-after': String(fault.retryAfterSeconds) },
      });
    }

    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const [user, secret] = basic ? splitOnce(Buffer.from(basic, 'base64').toString('utf8'), ':') : ['', ''];
    if (user !== username || secret !== password) return send(problem(401, 'Invalid Credentials', 'Unauthorized', url.pathname));
    if (req.method === 'POST' && !(req.headers['content-type'] ?? '').startsWith('application/json')) {
      return send(problem(415, 'Content type must be application/json', 'Unsupported Media Type', url.pathname));
    }

    if (fault?.kind === 'delay' && route.operation !== 'book') await sleep(fault.ms);
    switch (route.operation) {
      case 'book': {
        const answer = await book(body);
        if (answer.status === 201) {
          if (fault?.kind === 'dropAfterBooking') {
            res.socket?.destroy();
            return;
          }
          if (fault?.kind === 'delay') await sleep(fault.ms);
        }
        return send(answer);
      }
      case 'track':
        return send(track(url));
      case 'bookPickup':
        return send(bookPickup(body));
      case 'cancelPickup':
        return send(cancelPickup(route.param ?? '', url));
      case 'addressValidate':
        return send(addressValidate(url));
    }
  }

  async function book(raw: string): Promise<Answer> {
    const json = parseJson(raw);
    if (json === undefined) return problem(400, 'The request body is not valid JSON');
    state.bookingBodies.push(json);
    const parsed = shipmentRequestSchema.safeParse(json);
    if (!parsed.success) return validationError(parsed.error);
    const request = parsed.data;
    if (!DHL_TIMESTAMP.test(request.plannedShippingDateAndTime)) {
      return problem(400, `998: ShipTimeStamp is not well formatted.(Expected Sample Format : '2010-02-11T17:10:09 GMT+01:00')`);
    }
    const account = request.accounts.find((entry) => entry.typeCode === 'shipper');
    if (account?.number !== accountNumber) return problem(400, '2003: The shipper account number is not found or not valid. Please check the account number.');
    const shipper = request.customerDetails.shipperDetails.postalAddress;
    const receiver = request.customerDetails.receiverDetails.postalAddress;
    for (const [role, address] of [
      ['shipper', shipper],
      ['receiver', receiver],
    ] as const) {
      const rule = postalCodeRules[address.countryCode];
      if (rule && !rule.test(address.postalCode)) {
        return problem(400, `1001: The ${role} postal code ${address.postalCode} is not valid for the country ${address.countryCode}.`);
      }
    }
    const lane = productProblem(request, shipper.countryCode, receiver.countryCode);
    if (lane) return lane;
    const customs = customsProblem(request, shipper.countryCode, receiver.countryCode);
    if (customs) return customs;
    const services = servicesProblem(request);
    if (services) return services;
    for (const option of request.outputImageProperties?.imageOptions ?? []) {
      if (option.typeCode === 'label' && option.templateName && !LABEL_TEMPLATES.has(option.templateName)) {
        return problem(400, `7010: The label template ${option.templateName} is not available.`);
      }
    }

    const createdAt = new Date();
    const waybill = String(5_370_000_000 + ++waybillCounter * 7 + 1);
    const pieces = request.content.packages.map((pkg, index) => ({
      trackingNumber: `JD0146000046${String(waybillCounter * 1000 + index + 1).padStart(8, '0')}`,
      referenceNumber: pkg.referenceNumber ?? index + 1,
    }));
    const format = (request.outputImageProperties?.encodingFormat ?? 'pdf').toUpperCase();
    const template = request.outputImageProperties?.imageOptions?.find((option) => option.typeCode === 'label')?.templateName ?? 'ECOM26_84_001';
    const byPiece = (request.getAdditionalInformation ?? []).some((entry) => entry.typeCode === 'linkLabelsByPieces' && entry.isRequested);
    const labels = byPiece
      ? await Promise.all(
          pieces.map(async (piece) => ({
            packageReferenceNumber: piece.referenceNumber,
            imageFormat: format,
            content: await drawLabel([piece], waybill, request, format, template),
          })),
        )
      : [{ packageReferenceNumber: null, imageFormat: format, content: await drawLabel(pieces, waybill, request, format, template) }];
    const stored: FakeDhlShipment = {
      waybill,
      references: (request.customerReferences ?? []).map((reference) => reference.value),
      request,
      pieces,
      labels,
      events: [],
      createdAt,
    };
    state.shipments.push(stored);
    state.bookingsMade++;
    return {
      status: 201,
      headers: { location: `/shipments/${waybill}` },
      body: {
        shipmentTrackingNumber: waybill,
        trackingUrl: `https://express.api.dhl.com/mydhlapi/shipments/${waybill}/tracking`,
        packages: pieces.map((piece) => ({
          referenceNumber: piece.referenceNumber,
          trackingNumber: piece.trackingNumber,
          trackingUrl: `https://express.api.dhl.com/mydhlapi/shipments/${waybill}/tracking?pieceTrackingNumber=${piece.trackingNumber}`,
        })),
        documents: labels.map((label) => ({
          imageFormat: label.imageFormat,
          content: label.content,
          typeCode: 'label',
          ...(label.packageReferenceNumber === null ? {} : { packageReferenceNumber: label.packageReferenceNumber }),
        })),
        shipmentDetails: [{ productShortName: request.productCode }],
      },
    };
  }

  function productProblem(request: DhlShipmentRequest, from: string, to: string): Answer | null {
    const code = request.productCode;
    const notAvailable = problem(400, `410138: The requested product ${code} is not available for this origin and destination.`);
    if (!PRODUCTS.has(code)) return notAvailable;
    if (code === 'N' && from !== to) return notAvailable;
    if (code !== 'N' && from === to) return notAvailable;
    if ((code === 'U' || code === 'H') && !(EU.has(from) && EU.has(to))) return notAvailable;
    if ((code === 'W' || code === 'P') && EU.has(from) && EU.has(to)) return notAvailable;
    return null;
  }

  /** An export (outside the EU customs union) of goods is declared line by line, HS codes included. */
  function customsProblem(request: DhlShipmentRequest, from: string, to: string): Answer | null {
    const content = request.content;
    const isExport = from !== to && !(EU.has(from) && EU.has(to));
    const isDocuments = request.productCode === 'D' || request.productCode === 'X';
    if (isExport && !isDocuments && !content.isCustomsDeclarable) {
      return problem(400, `8040: The shipment from ${from} to ${to} is dutiable: isCustomsDeclarable must be true for product ${request.productCode}.`);
    }
    if (!content.isCustomsDeclarable) {
      if (content.exportDeclaration) return problem(400, '8041: An export declaration is only allowed for a customs declarable shipment.');
      return null;
    }
    if (content.declaredValue === undefined || !content.declaredValueCurrency) {
      return problem(400, '8042: declaredValue and declaredValueCurrency are required for a customs declarable shipment.');
    }
    const declaration = content.exportDeclaration;
    if (!declaration) return problem(400, '8043: exportDeclaration with its line items is required for a customs declarable shipment.');
    for (const item of declaration.lineItems) {
      const hs = item.commodityCodes?.find((code) => code.typeCode === 'outbound');
      if (!hs) return problem(400, `8044: Line item ${item.number} has no outbound commodity code (HS code).`);
      if (!/^\d{6,18}$/.test(hs.value)) return problem(400, `8045: The commodity code ${hs.value} of line item ${item.number} is not a valid HS code.`);
    }
    const total = declaration.lineItems.reduce((sum, item) => sum + item.price * item.quantity.value, 0);
    if (Math.abs(total - content.declaredValue) > 0.01) {
      return problem(400, `8046: declaredValue ${content.declaredValue} does not match the line items' total value ${Math.round(total * 100) / 100}.`);
    }
    return null;
  }

  function servicesProblem(request: DhlShipmentRequest): Answer | null {
    const codes = (request.valueAddedServices ?? []).map((service) => service.serviceCode);
    for (const [index, service] of (request.valueAddedServices ?? []).entries()) {
      if (!KNOWN_SERVICES.has(service.serviceCode)) {
        return problem(
          400,
          `7008: The requested Special Service Code  #/valueAddedServices/${index}/serviceCode '${service.serviceCode}' is not available between this origin and destination.`,
        );
      }
      if (service.serviceCode === 'II' && !(service.value && service.currency)) {
        return problem(400, `7009: Special Service Code II needs its value and currency (#/valueAddedServices/${index}).`);
      }
    }
    const hasImages = (request.documentImages ?? []).length > 0;
    if (codes.includes(PAPERLESS_TRADE_SERVICE) && !state.paperlessAccount) {
      return problem(400, '7011: The account is not enabled for Paperless Trade (WY). Please contact your DHL Express representative.');
    }
    if (codes.includes(PAPERLESS_TRADE_SERVICE) && !hasImages) {
      return problem(400, '6020: Paperless Trade (WY) requires the invoice as a document image: provide #/documentImages.');
    }
    if (hasImages && !codes.includes(PAPERLESS_TRADE_SERVICE)) {
      return problem(400, '6021: Document images are only accepted with the Paperless Trade (WY) special service.');
    }
    for (const image of request.documentImages ?? []) {
      if (!isPdf(image.content) && (image.imageFormat ?? 'PDF') === 'PDF') return problem(400, '6022: The document image is not a valid base64 encoded PDF.');
    }
    return null;
  }

  function track(url: URL): Answer {
    const instance = `/expressapi/tracking${url.search}`;
    const waybills = url.searchParams.getAll('shipmentTrackingNumber');
    const view = url.searchParams.get('trackingView');
    const level = url.searchParams.get('levelOfDetail');
    if (waybills.length === 0) return problem(400, 'Missing mandatory parameters: shipmentTrackingNumber', 'Missing parameters', instance);
    if (waybills.length > TRACK_BATCH_LIMIT)
      return problem(400, `At most ${TRACK_BATCH_LIMIT} shipmentTrackingNumber values are allowed`, 'Bad request', instance);
    if (
      view &&
      !['all-checkpoints', 'all-checkpoints-with-remarks', 'last-checkpoint', 'shipment-details-only', 'advance-shipment', 'bbx-children'].includes(view)
    ) {
      return problem(400, `Parameters not having correct format: trackingView`, 'Bad request', instance);
    }
    if (level && !['shipment', 'piece', 'all'].includes(level))
      return problem(400, 'Parameters not having correct format: levelOfDetail', 'Bad request', instance);
    const found = waybills.map((waybill) => state.findShipment(waybill)).filter((shipment): shipment is FakeDhlShipment => shipment !== undefined);
    if (found.length === 0) return problem(404, `No Shipments Found for shipmentTrackingNumber | ${waybills.join(',')}`, 'Not data found', instance);
    return {
      status: 200,
      body: {
        shipments: found.map((shipment) => ({
          shipmentTrackingNumber: shipment.waybill,
          status: summaryOf(shipment.events.at(-1)?.typeCode),
          shipmentTimestamp: shipment.createdAt.toISOString().slice(0, 19),
          productCode: shipment.request.productCode,
          numberOfPieces: shipment.pieces.length,
          shipperReferences: shipment.references.map((value) => ({ value, typeCode: 'CU' })),
          events: view === 'last-checkpoint' ? shipment.events.slice(-1) : shipment.events,
        })),
      },
    };
  }

  function bookPickup(raw: string): Answer {
    const json = parseJson(raw);
    if (json === undefined) return problem(400, 'The request body is not valid JSON', 'Bad request', '/expressapi/pickups');
    const parsed = pickupRequestSchema.safeParse(json);
    if (!parsed.success) return validationError(parsed.error, '/expressapi/pickups');
    const request = parsed.data;
    if (!DHL_TIMESTAMP.test(request.plannedPickupDateAndTime)) {
      return problem(
        400,
        `998: PlannedPickupDateAndTime is not well formatted.(Expected Sample Format : '2010-02-11T17:10:09 GMT+01:00')`,
        'Bad request',
        '/expressapi/pickups',
      );
    }
    if (!request.accounts.some((entry) => entry.typeCode === 'shipper' && entry.number === accountNumber)) {
      return problem(400, '8003: Account not allowed for this service. Please contact your DHL Express representative.', 'Bad request', '/expressapi/pickups');
    }
    const ready = request.plannedPickupDateAndTime.slice(11, 16);
    if (request.closeTime && request.closeTime <= ready) {
      return problem(400, `8010: The close time ${request.closeTime} must be after the ready time ${ready}.`, 'Bad request', '/expressapi/pickups');
    }
    const number = `PRG${request.plannedPickupDateAndTime.slice(2, 10).replace(/-/g, '')}${String(++pickupCounter).padStart(6, '0')}`;
    state.pickups.push({ dispatchConfirmationNumber: number, request, status: 'booked', cancelledBy: null });
    return { status: 201, body: { dispatchConfirmationNumbers: [number], readyByTime: ready, nextPickupDate: request.plannedPickupDateAndTime.slice(0, 10) } };
  }

  function cancelPickup(number: string, url: URL): Answer {
    const instance = `/expressapi/pickups/${number}${url.search}`;
    const missing = ['requestorName', 'reason'].filter((name) => !url.searchParams.get(name));
    if (missing.length) return problem(400, `Missing mandatory parameters: ${missing.join(', ')}`, 'Missing parameters', instance);
    const pickup = state.pickups.find((candidate) => candidate.dispatchConfirmationNumber === number);
    if (!pickup) return problem(404, 'Cancellation of booking was not successful. Requested Pickup was not found', 'Pickup not found', instance);
    if (pickup.status === 'cancelled') return problem(400, 'Pickup already cancelled', 'Bad request', instance);
    pickup.status = 'cancelled';
    pickup.cancelledBy = { requestorName: url.searchParams.get('requestorName')!, reason: url.searchParams.get('reason')! };
    return { status: 200 };
  }

  function addressValidate(url: URL): Answer {
    const instance = `/expressapi/address-validate${url.search}`;
    const type = url.searchParams.get('type');
    const countryCode = url.searchParams.get('countryCode');
    const missing = [type ? null : 'type', countryCode ? null : 'countryCode'].filter(Boolean);
    if (missing.length) return problem(400, `Missing mandatory parameters: ${missing.join(', ')}`, 'Missing parameters', instance);
    if (type !== 'pickup' && type !== 'delivery') return problem(400, 'Parameters not having correct format: type', 'Bad request', instance);
    const postalCode = url.searchParams.get('postalCode') ?? '';
    const rule = postalCodeRules[countryCode!];
    if (rule && postalCode && !rule.test(postalCode)) return problem(400, `Postal code ${postalCode} is not valid for ${countryCode}`, 'Bad request', instance);
    return {
      status: 200,
      body: {
        address: [
          {
            countryCode,
            postalCode,
            cityName: (url.searchParams.get('cityName') ?? '').toUpperCase(),
            serviceArea: { code: 'CPH', description: `${countryCode} SERVICE AREA`, GMTOffset: GMT_OFFSETS[countryCode!] ?? '+00:00' },
          },
        ],
      },
    };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    username,
    password,
    accountNumber,
    state,
    switches,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Both documented servers (production and test) are answered. */
function routeOf(method: string, fullPath: string): { operation: DhlOperation; param?: string } | null {
  const prefix = /^\/mydhlapi(\/test)?(\/.*)$/.exec(fullPath);
  if (!prefix) return null;
  const path = prefix[2]!;
  if (method === 'POST' && path === '/shipments') return { operation: 'book' };
  if (method === 'GET' && path === '/tracking') return { operation: 'track' };
  if (method === 'POST' && path === '/pickups') return { operation: 'bookPickup' };
  const pickup = /^\/pickups\/([^/]+)$/.exec(path);
  if (method === 'DELETE' && pickup) return { operation: 'cancelPickup', param: decodeURIComponent(pickup[1]!) };
  if (method === 'GET' && path === '/address-validate') return { operation: 'addressValidate' };
  return null;
}

/** A schema failure as MyDHL words it: the JSON pointer of the field and what is wrong with it. */
function validationError(error: z.ZodError, instance = '/expressapi/shipments'): Answer {
  const issue = error.issues[0]!;
  const pointer = `#/${issue.path.join('/')}`;
  let detail: string;
  if (issue.code === 'unrecognized_keys') detail = `${pointer}: extraneous key [${issue.keys[0]}] is not permitted`;
  else if (issue.code === 'invalid_type' && issue.message.includes('undefined')) detail = `${pointer}: required key is missing`;
  else if (issue.code === 'invalid_value') detail = `${pointer}: ${issue.message} (not one of the allowed values)`;
  else if (issue.code === 'too_small') detail = `${pointer}: expected minLength/minimum ${String(issue.minimum)}`;
  else if (issue.code === 'too_big') detail = `${pointer}: expected maxLength/maximum ${String(issue.maximum)}`;
  else detail = `${pointer}: ${issue.message}`;
  return problem(422, detail, 'Validation error', instance);
}

function summaryOf(code: string | undefined): string {
  if (!code) return 'pre-transit';
  if (code === 'OK') return 'delivered';
  return 'transit';
}

function checkpoint(typeCode: string, description: string, at: Date, area?: string): DhlTrackingEvent {
  // DHL writes local times with their offset; the fake keeps UTC.
  const iso = at.toISOString();
  return {
    date: iso.slice(0, 10),
    time: iso.slice(11, 19),
    GMTOffset: '+00:00',
    typeCode,
    description,
    serviceArea: [{ code: 'CPH', description: area ?? 'Copenhagen - Denmark' }],
  };
}

const isPdf = (base64: string) => Buffer.from(base64.slice(0, 12), 'base64').toString('latin1').startsWith('%PDF');

async function drawLabel(pieces: FakeDhlPiece[], waybill: string, request: DhlShipmentRequest, format: string, template: string): Promise<string> {
  const receiver = request.customerDetails.receiverDetails.postalAddress;
  if (format === 'ZPL') {
    const zpl = pieces
      .map((piece) =>
        [
          '^XA',
          '^CI28',
          '^FO40,40^A0N,50,50^FDDHL EXPRESS^FS',
          `^FO40,120^A0N,30,30^FD${receiver.postalCode} ${receiver.cityName} ${receiver.countryCode}^FS`,
          `^FO40,200^BY3^BCN,120,Y,N,N^FD${waybill}^FS`,
          `^FO40,380^BY2^BCN,100,Y,N,N^FD${piece.trackingNumber}^FS`,
          '^XZ',
        ].join('\n'),
      )
      .join('\n');
    return Buffer.from(`${zpl}\n`, 'utf8').toString('base64');
  }
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const size = template === 'ECOM26_84_A4_001' ? A4_POINTS : A6_POINTS;
  for (const piece of pieces) {
    const page = pdf.addPage([size.width, size.height]);
    page.drawText('DHL EXPRESS', { x: 20, y: size.height - 40, size: 24, font });
    page.drawText(`WAYBILL ${waybill}`, { x: 20, y: size.height - 70, size: 12, font });
    page.drawText(`Piece ${piece.trackingNumber}`, { x: 20, y: size.height - 88, size: 10, font });
    page.drawText(`${receiver.postalCode} ${receiver.cityName} ${receiver.countryCode}`, { x: 20, y: size.height - 110, size: 12, font });
  }
  pdf.setCreationDate(new Date(0));
  pdf.setModificationDate(new Date(0));
  return Buffer.from(await pdf.save()).toString('base64');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
