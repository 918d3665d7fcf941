/**
 * A local UPS on 127.0.0.1 (the machine cannot reach UPS): the OAuth token endpoint, the Shipping
 * API's ship, label recovery and void, the Paperless Document API's upload, the Tracking API and the Pickup API's
 * create, cancel and country list, at their documented paths. Requests are checked with the contract's
 * schemas and UPS's rules for exports, and refused in UPS's own error shape, so a request the real UPS
 * would refuse fails the test. The error codes are the fake's own, in UPS's style. Shipments, uploaded
 * documents and pickups are kept, so void, tracking and cancel answer about them.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { encodeGif } from './gif';
import {
  labelRecoveryRequestSchema,
  paperlessUploadRequestSchema,
  pickupCreationRequestSchema,
  shipmentRequestSchema,
  tokenRequestSchema,
  type UpsPickupCreationRequest,
  type UpsShipmentRequest,
} from './contract';
import { UPS_SERVICE_CODES } from './products';
import { faultQueue, parseJson, readBody, splitOnce } from '../platform/fakeKit';

export type UpsOperation = 'token' | 'book' | 'labelRecovery' | 'void' | 'track' | 'paperlessUpload' | 'bookPickup' | 'cancelPickup' | 'countries';

export type UpsFault =
  | { kind: 'serverError'; status?: number }
  | { kind: 'rateLimit'; retryAfterSeconds: number }
  /** Answers normally, this much later (a booking is made before the wait). */
  | { kind: 'delay'; ms: number }
  /** Books, then closes the connection without an answer. */
  | { kind: 'dropAfterBooking' }
  /** Books, and answers a GIF label that is not an image. */
  | { kind: 'unreadableLabel' };

/** UPS's activity status types as the fake moves packages on. */
export type UpsStatusType = 'M' | 'P' | 'I' | 'O' | 'D' | 'X' | 'RS';

export interface FakeUpsActivity {
  at: Date;
  type: UpsStatusType;
  code: string;
  description: string;
  city: string;
  countryCode: string;
}

export interface FakeUpsPackage {
  trackingNumber: string;
  activities: FakeUpsActivity[];
  /** The label as handed out, base64 (GIF or ZPL). */
  label: string;
  labelFormat: 'GIF' | 'ZPL';
}

export interface FakeUpsShipment {
  shipmentId: string;
  reference: string | null;
  request: UpsShipmentRequest;
  packages: FakeUpsPackage[];
  voided: boolean;
  createdAt: Date;
}

export interface FakeUpsPickup {
  prn: string;
  request: UpsPickupCreationRequest;
  cancelled: boolean;
}

export interface FakeUpsState {
  shipments: FakeUpsShipment[];
  counts: Record<UpsOperation, number>;
  /** Bookings made (a booking dropped on the way back counts too). */
  bookingsMade: number;
  requests: { operation: UpsOperation | 'unknown'; method: string; path: string; status: number | null }[];
  /** Bodies of the ship requests that reached validation, newest last. */
  bookingBodies: unknown[];
  /** Uploaded Forms History documents by DocumentID. */
  documents: Map<string, { shipperNumber: string; fileName: string; documentType: string; content: Buffer }>;
  pickups: FakeUpsPickup[];
  /** Every access token handed out, so a test can look for one where it must not be. */
  issuedTokens: string[];
  /** Makes every token issued so far invalid (an expired or revoked token). */
  expireTokens(): void;
  /** Moves a package on, adding the activity UPS would show. */
  scan(trackingNumber: string, type: UpsStatusType, at?: Date, place?: { city: string; countryCode: string }): void;
  findPackage(trackingNumber: string): FakeUpsPackage | undefined;
}

export interface FakeUpsSwitches {
  add(operation: UpsOperation | 'any', fault: UpsFault, times?: number): void;
  clear(): void;
}

export interface FakeUps {
  /** Give this as the carrier's `apiBaseUrl`: the documented paths follow it. */
  url: string;
  clientId: string;
  clientSecret: string;
  accountNumber: string;
  state: FakeUpsState;
  switches: FakeUpsSwitches;
  close(): Promise<void>;
}

export interface FakeUpsOptions {
  clientId?: string;
  clientSecret?: string;
  accountNumber?: string;
  tokenLifetimeSeconds?: number;
}

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/** UPS's GIF label: 4 × 6 in at 200 dpi, lying on its side. */
export const FAKE_GIF_SIZE = { width: 1200, height: 800 } as const;
const MAX_PACKAGE_KG = 70;
const EU = new Set('AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE'.split(' '));
const postalCodeRules: Record<string, RegExp> = {
  DK: /^\d{4}$/,
  NO: /^\d{4}$/,
  SE: /^\d{5}$/,
  FI: /^\d{5}$/,
  DE: /^\d{5}$/,
  US: /^\d{5}(\d{4})?$/,
  GB: /^[A-Z]{1,2}\d[A-Z\d]?\d[A-Z]{2}$/,
};
const statusTexts: Record<UpsStatusType, { code: string; description: string }> = {
  M: { code: 'MP', description: 'Shipper created a label, UPS has not received the package yet.' },
  P: { code: 'OR', description: 'Pickup Scan' },
  I: { code: 'AR', description: 'Arrived at Facility' },
  O: { code: 'OT', description: 'Out For Delivery Today' },
  D: { code: 'KB', description: 'Delivered' },
  X: { code: 'DS', description: 'The receiver was not available for delivery.' },
  RS: { code: 'RS', description: 'Returned to shipper' },
};

const upsError = (status: number, code: string, message: string): Answer => ({ status, body: { response: { errors: [{ code, message }] } } });

export async function startFakeUps(options: FakeUpsOptions = {}): Promise<FakeUps> {
  const clientId = options.clientId ?? 'ups-fake-client';
  const clientSecret = options.clientSecret ?? 'ups-fake-secret';
  const accountNumber = options.accountNumber ?? 'A1B2C3';
  const lifetime = options.tokenLifetimeSeconds ?? 14_399;
  const tokens = new Map<string, number>();
  const faults = faultQueue<UpsOperation, UpsFault>();
  let counter = 0;

  const state: FakeUpsState = {
    shipments: [],
    counts: { token: 0, book: 0, labelRecovery: 0, void: 0, track: 0, paperlessUpload: 0, bookPickup: 0, cancelPickup: 0, countries: 0 },
    bookingsMade: 0,
    requests: [],
    bookingBodies: [],
    documents: new Map(),
    pickups: [],
    issuedTokens: [],
    expireTokens: () => tokens.clear(),
    findPackage: (number) => state.shipments.flatMap((shipment) => shipment.packages).find((pkg) => pkg.trackingNumber === number),
    scan(number, type, at = new Date(), place = { city: 'Copenhagen', countryCode: 'DK' }) {
      const pkg = state.findPackage(number);
      if (!pkg) throw new Error(`The fake UPS has no package ${number}`);
      pkg.activities.unshift({ at, type, ...statusTexts[type], ...place });
    },
  };

  const switches: FakeUpsSwitches = { add: faults.add, clear: faults.clear };
  const takeFault = faults.take;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake-ups');
    const body = await readBody(req);
    const route = routeOf(req.method ?? 'GET', url.pathname);
    const logged: FakeUpsState['requests'][number] = { operation: route?.operation ?? 'unknown', method: req.method ?? '', path: url.pathname, status: null };
    state.requests.push(logged);
    const send = (answer: Answer) => {
      logged.status = answer.status;
      if (res.destroyed) return;
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    };
    if (!route) return send(upsError(404, '404', `No such resource ${url.pathname}`));
    state.counts[route.operation]++;

    const fault = takeFault(route.operation);
    if (fault?.kind === 'serverError') return send(upsError(fault.status ?? 503, '9999', 'Service unavailable'));
    if (fault?.kind === 'rateLimit') {
      return send({ ...upsError(429, '429', 'Rate limit exceeded'), headers: { 'retry-after': String(fault.retryAfterSeconds) } });
    }

    if (route.operation !== 'token') {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const expiresAt = token ? tokens.get(token) : undefined;
      if (!expiresAt || expiresAt < Date.now()) return send(upsError(401, '250002', 'Invalid Authentication Information.'));
      const transId = req.headers.transid;
      if (typeof transId !== 'string' || transId.length === 0 || transId.length > 32 || typeof req.headers.transactionsrc !== 'string') {
        return send(upsError(400, '10001', 'The request is missing the transId or transactionSrc header'));
      }
      if (req.method === 'POST' && !(req.headers['content-type'] ?? '').startsWith('application/json')) {
        return send(upsError(415, '10002', 'Content type must be application/json'));
      }
    }

    const afterBooking = async () => {
      if (fault?.kind === 'dropAfterBooking') {
        res.socket?.destroy();
        return true;
      }
      if (fault?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, fault.ms));
      return false;
    };
    const changes = route.operation === 'book' || route.operation === 'bookPickup';
    if (fault?.kind === 'delay' && !changes) await new Promise((resolve) => setTimeout(resolve, fault.ms));

    switch (route.operation) {
      case 'token':
        return send(issueToken(req, body));
      case 'book': {
        const answer = book(body, fault?.kind === 'unreadableLabel');
        if (answer.status === 200 && (await afterBooking())) return;
        return send(answer);
      }
      case 'bookPickup': {
        const answer = bookPickup(body);
        if (answer.status === 200 && (await afterBooking())) return;
        return send(answer);
      }
      case 'labelRecovery':
        return send(recoverLabels(body));
      case 'void':
        return send(voidShipment(route.param ?? ''));
      case 'track':
        return send(track(route.param ?? ''));
      case 'paperlessUpload':
        return send(upload(req, body));
      case 'cancelPickup':
        return send(cancelPickup(req));
      case 'countries':
        return send({
          status: 200,
          body: {
            PickupGetPoliticalDivision1ListResponse: {
              Response: { ResponseStatus: { Code: '1', Description: 'Success' } },
              PoliticalDivision1: ['AL', 'AK', 'AZ'],
            },
          },
        });
    }
  }

  function issueToken(req: IncomingMessage, body: string): Answer {
    if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return upsError(400, '10400', 'Invalid/Missing Content-Type');
    }
    const form = tokenRequestSchema.safeParse(Object.fromEntries(new URLSearchParams(body)));
    if (!form.success) return upsError(400, '10400', 'Invalid/Missing grant_type');
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const [id, secret] = basic ? splitOnce(Buffer.from(basic, 'base64').toString('utf8'), ':') : ['', ''];
    if (id !== clientId || secret !== clientSecret) return upsError(401, '10401', 'ClientId is Invalid');
    const token = randomBytes(24).toString('base64url');
    tokens.set(token, Date.now() + lifetime * 1000);
    state.issuedTokens.push(token);
    return {
      status: 200,
      body: { token_type: 'Bearer', issued_at: String(Date.now()), client_id: clientId, access_token: token, expires_in: String(lifetime), status: 'approved' },
    };
  }

  function book(raw: string, unreadableLabel = false): Answer {
    const json = parseJson(raw);
    if (json === undefined) return upsError(400, '10003', 'The request body is not valid JSON');
    state.bookingBodies.push(json);
    const parsed = shipmentRequestSchema.safeParse(json);
    if (!parsed.success) return schemaError(parsed.error, json);
    const request = parsed.data.ShipmentRequest;
    const shipment = request.Shipment;
    if (shipment.Shipper.ShipperNumber !== accountNumber) return upsError(400, '120100', 'Missing or invalid shipper number');
    for (const charge of shipment.PaymentInformation.ShipmentCharge) {
      if (charge.BillShipper && charge.BillShipper.AccountNumber !== accountNumber)
        return upsError(400, '120124', 'The requested payment account is invalid for the shipper');
    }
    if (!shipment.PaymentInformation.ShipmentCharge.some((charge) => charge.Type === '01')) {
      return upsError(400, '120412', 'A shipment charge type of 01 Transportation is required');
    }
    if (!UPS_SERVICE_CODES.includes(shipment.Service.Code)) return upsError(400, '120114', 'Invalid service code');
    for (const [party, address] of [
      ['ShipTo', shipment.ShipTo.Address],
      ['Shipper', shipment.Shipper.Address],
    ] as const) {
      const rule = postalCodeRules[address.CountryCode];
      if (rule && !rule.test(address.PostalCode ?? '')) return upsError(400, party === 'ShipTo' ? '120208' : '120104', `Invalid ${party} postal code`);
    }
    for (const pkg of shipment.Package) {
      if (Number(pkg.PackageWeight.Weight) > (pkg.PackageWeight.UnitOfMeasurement.Code === 'KGS' ? MAX_PACKAGE_KG : 150)) {
        return upsError(400, '120541', `The package weight exceeds the maximum of ${MAX_PACKAGE_KG} kg`);
      }
    }
    for (const agent of shipment.GlobalTaxInformation?.AgentTaxIdentificationNumber ?? []) {
      const allowed = ['1002', '1005', '0005'];
      if (agent.AgentRole === '30' && agent.TaxIdentificationNumber.some((id) => !allowed.includes(id.IDNumberTypeCode))) {
        return upsError(400, '120950', 'For the consignee (AgentRole 30) the IDNumberTypeCode must be 1002, 1005 or 0005');
      }
    }
    const exportProblem = exportRules(shipment);
    if (exportProblem) return exportProblem;

    const createdAt = new Date();
    const format = request.LabelSpecification.LabelImageFormat.Code === 'ZPL' ? 'ZPL' : 'GIF';
    const packages: FakeUpsPackage[] = shipment.Package.map(() => {
      counter++;
      const trackingNumber = `1Z${accountNumber}${shipment.Service.Code}${String(counter).padStart(8, '0')}`;
      return {
        trackingNumber,
        activities: [{ at: createdAt, type: 'M', ...statusTexts.M, city: shipment.Shipper.Address.City, countryCode: shipment.Shipper.Address.CountryCode }],
        label: drawLabel(trackingNumber, format, shipment.ShipTo.Address.City),
        labelFormat: format,
      };
    });
    const stored: FakeUpsShipment = {
      shipmentId: packages[0]!.trackingNumber,
      reference: shipment.ReferenceNumber?.[0]?.Value ?? shipment.Package[0]?.ReferenceNumber?.[0]?.Value ?? null,
      request: parsed.data,
      packages,
      voided: false,
      createdAt,
    };
    state.shipments.push(stored);
    state.bookingsMade++;
    return {
      status: 200,
      body: {
        ShipmentResponse: {
          Response: { ResponseStatus: { Code: '1', Description: 'Success' }, TransactionReference: request.Request.TransactionReference ?? {} },
          ShipmentResults: {
            ShipmentCharges: { TotalCharges: { CurrencyCode: 'EUR', MonetaryValue: '23.40' } },
            BillingWeight: { UnitOfMeasurement: { Code: 'KGS' }, Weight: '3.0' },
            ShipmentIdentificationNumber: stored.shipmentId,
            PackageResults: packages.map((pkg) => ({
              TrackingNumber: pkg.trackingNumber,
              ShippingLabel: {
                ImageFormat: { Code: pkg.labelFormat, Description: pkg.labelFormat },
                GraphicImage: unreadableLabel ? Buffer.from('not an image').toString('base64') : pkg.label,
              },
            })),
          },
        },
      },
    };
  }

  /** UPS's rules for a shipment between countries, and for one that crosses a customs border (not within the EU). */
  function exportRules(shipment: UpsShipmentRequest['ShipmentRequest']['Shipment']): Answer | null {
    const from = (shipment.ShipFrom ?? shipment.Shipper).Address.CountryCode;
    const to = shipment.ShipTo.Address.CountryCode;
    if (from === to) return null;
    const withinEu = EU.has(from) && EU.has(to);
    // The goods are described on every shipment between countries but UPS Standard within the EU.
    if (!shipment.Description && !(withinEu && shipment.Service.Code === '11')) {
      return upsError(400, '120031', 'Description of goods is required for an international shipment');
    }
    if (!shipment.ShipTo.AttentionName) return upsError(400, '120202', 'ShipTo attention name is required for an international shipment');
    if (!shipment.ShipTo.Phone) return upsError(400, '120213', 'ShipTo phone number is required for an international shipment');
    if (!shipment.Shipper.Phone) return upsError(400, '120109', 'Shipper phone number is required for an international shipment');
    if (withinEu) return null;
    const forms = shipment.ShipmentServiceOptions?.InternationalForms;
    if (!forms) return upsError(400, '120501', 'InternationalForms are required for this shipment: the goods must be declared for customs');
    for (const [index, product] of forms.Product.entries()) {
      if (!product.CommodityCode) return upsError(400, '120540', `Product ${index + 1}: a commodity code (HS code) is required`);
      if (!product.OriginCountryCode) return upsError(400, '120542', `Product ${index + 1}: the country of origin is required`);
      if (!product.Unit || Number(product.Unit.Value) <= 0) return upsError(400, '120543', `Product ${index + 1}: the unit value must be greater than zero`);
    }
    if (forms.FormType.includes('01')) {
      if (!forms.InvoiceNumber) return upsError(400, '120511', 'The invoice number is required for the Invoice form');
      if (!forms.InvoiceDate) return upsError(400, '120512', 'The invoice date is required for the Invoice form');
      if (!forms.ReasonForExport) return upsError(400, '120513', 'The reason for export is required for the Invoice form');
      if (!forms.CurrencyCode) return upsError(400, '120514', 'The currency code is required for the Invoice form');
    }
    if (forms.FormType.includes('07')) {
      const ids = forms.UserCreatedForm?.DocumentID ?? [];
      if (ids.length === 0) return upsError(400, '120520', 'UserCreatedForm DocumentID is required when FormType is 07');
      for (const id of ids) {
        const document = state.documents.get(id);
        if (!document || document.shipperNumber !== shipment.Shipper.ShipperNumber)
          return upsError(400, '120521', `Document ${id} was not found in Forms History`);
      }
    }
    return null;
  }

  /** Label Recovery by reference (and shipper number) or by tracking number; voided shipments have no labels. */
  function recoverLabels(raw: string): Answer {
    const json = parseJson(raw);
    const parsed = labelRecoveryRequestSchema.safeParse(json);
    if (!parsed.success) return schemaError(parsed.error, json);
    const request = parsed.data.LabelRecoveryRequest;
    if (request.ReferenceValues && request.ReferenceValues.ShipperNumber !== accountNumber) return upsError(400, '190205', 'Invalid shipper number');
    const matches = state.shipments.filter(
      (shipment) =>
        !shipment.voided &&
        (request.TrackingNumber
          ? shipment.packages.some((pkg) => pkg.trackingNumber === request.TrackingNumber)
          : shipment.reference === request.ReferenceValues?.ReferenceNumber.Value),
    );
    if (matches.length === 0) return upsError(400, '190202', 'No shipment found for the reference number or tracking number');
    const ok = { ResponseStatus: { Code: '1', Description: 'Success' } };
    if (matches.length > 1) {
      return {
        status: 200,
        body: {
          LabelRecoveryResponse: {
            Response: ok,
            LabelResults: [],
            TrackingCandidate: matches.map((shipment) => ({
              TrackingNumber: shipment.shipmentId,
              PickupDateRange: { BeginDate: upsDate(shipment.createdAt), EndDate: upsDate(shipment.createdAt) },
            })),
          },
        },
      };
    }
    const shipment = matches[0]!;
    const format = request.LabelSpecification.LabelImageFormat.Code === 'ZPL' ? 'ZPL' : 'GIF';
    return {
      status: 200,
      body: {
        LabelRecoveryResponse: {
          Response: ok,
          ShipmentIdentificationNumber: shipment.shipmentId,
          LabelResults: shipment.packages.map((pkg) => ({
            TrackingNumber: pkg.trackingNumber,
            LabelImage: {
              LabelImageFormat: { Code: format },
              GraphicImage:
                pkg.labelFormat === format ? pkg.label : drawLabel(pkg.trackingNumber, format, shipment.request.ShipmentRequest.Shipment.ShipTo.Address.City),
            },
          })),
        },
      },
    };
  }

  function voidShipment(id: string): Answer {
    if (!/^1Z[A-Z0-9]{16}$/.test(id)) return upsError(400, '190100', 'Invalid shipment identification number');
    const shipment = state.shipments.find((candidate) => candidate.shipmentId === id);
    if (!shipment || shipment.voided) return upsError(400, '190101', 'No shipment found within the allowed void period');
    if (shipment.packages.some((pkg) => pkg.activities[0]?.type !== 'M'))
      return upsError(400, '190117', 'Void period has expired: the package has been picked up');
    shipment.voided = true;
    for (const pkg of shipment.packages) pkg.activities.unshift({ at: new Date(), type: 'M', code: 'VD', description: 'Voided', city: '', countryCode: '' });
    return {
      status: 200,
      body: {
        VoidShipmentResponse: {
          Response: { ResponseStatus: { Code: '1', Description: 'Success' } },
          SummaryResult: { Status: { Code: '1', Description: 'Voided' } },
        },
      },
    };
  }

  function track(number: string): Answer {
    if (number.length < 7 || number.length > 34) return upsError(400, 'TV1002', 'Invalid inquiry number');
    const pkg = state.findPackage(number);
    if (!pkg) return upsError(404, 'TW0001', 'Tracking Information Not Found');
    const current = pkg.activities[0]!;
    return {
      status: 200,
      body: {
        trackResponse: {
          shipment: [
            {
              inquiryNumber: number,
              package: [
                {
                  trackingNumber: number,
                  currentStatus: { type: current.type, code: current.code, description: current.description },
                  activity: pkg.activities.map((activity) => ({
                    location: { address: { city: activity.city, countryCode: activity.countryCode, country: activity.countryCode } },
                    status: { type: activity.type, code: activity.code, description: activity.description, statusCode: '003' },
                    date: upsDate(activity.at),
                    time: upsTime(activity.at),
                    gmtDate: upsDate(activity.at),
                    gmtTime: upsTime(activity.at).replace(/^0/, ''),
                    gmtOffset: '+00:00',
                  })),
                },
              ],
            },
          ],
        },
      },
    };
  }

  function upload(req: IncomingMessage, raw: string): Answer {
    const json = parseJson(raw);
    const parsed = paperlessUploadRequestSchema.safeParse(json);
    if (!parsed.success) return schemaError(parsed.error, json);
    const upload = parsed.data.UploadRequest;
    if (req.headers.shippernumber !== accountNumber || upload.ShipperNumber !== accountNumber) {
      return upsError(400, '9590002', 'The shipper number is not enabled for Paperless Invoice (Upload Forms Created Offline)');
    }
    const ids: string[] = [];
    for (const form of upload.UserCreatedForm) {
      const content = Buffer.from(form.UserCreatedFormFile, 'base64');
      // The test system takes files up to 1 MB.
      if (content.length === 0 || content.length > 1_000_000) return upsError(400, '9590008', 'The file is empty or larger than allowed');
      if (form.UserCreatedFormFileFormat === 'pdf' && content.subarray(0, 5).toString('latin1') !== '%PDF-')
        return upsError(400, '9590009', 'The file is not a PDF');
      const id = `${upsDate(new Date())}${randomBytes(9).toString('hex').toUpperCase()}`;
      state.documents.set(id, {
        shipperNumber: upload.ShipperNumber,
        fileName: form.UserCreatedFormFileName,
        documentType: form.UserCreatedFormDocumentType,
        content,
      });
      ids.push(id);
    }
    return {
      status: 200,
      body: { UploadResponse: { Response: { ResponseStatus: { Code: '1', Description: 'Success' } }, FormsHistoryDocumentID: { DocumentID: ids } } },
    };
  }

  function bookPickup(raw: string): Answer {
    const json = parseJson(raw);
    const parsed = pickupCreationRequestSchema.safeParse(json);
    if (!parsed.success) return schemaError(parsed.error, json);
    const request = parsed.data.PickupCreationRequest;
    if (request.PaymentMethod === '01' && request.Shipper?.Account.AccountNumber !== accountNumber)
      return upsError(400, '9500541', 'Invalid shipper account number');
    if (request.PickupDateInfo.PickupDate < upsDate(new Date())) return upsError(400, '9500561', 'The pickup date is in the past');
    const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(2));
    if (minutes(request.PickupDateInfo.CloseTime) - minutes(request.PickupDateInfo.ReadyTime) < 60) {
      return upsError(400, '9500565', 'The close time must be at least 60 minutes after the ready time');
    }
    const prn = `GPD${randomBytes(4).toString('hex').toUpperCase()}`;
    state.pickups.push({ prn, request: parsed.data, cancelled: false });
    return {
      status: 200,
      body: {
        PickupCreationResponse: {
          Response: { ResponseStatus: { Code: '1', Description: 'Success' } },
          PRN: prn,
          RateStatus: { Code: '01', Description: 'Not rated' },
        },
      },
    };
  }

  function cancelPickup(req: IncomingMessage): Answer {
    const prn = req.headers.prn;
    if (typeof prn !== 'string' || prn === '') return upsError(400, '9510101', 'The PRN is required to cancel by PRN');
    const pickup = state.pickups.find((candidate) => candidate.prn === prn);
    if (!pickup || pickup.cancelled) return upsError(400, '9510113', 'No pickup found for this PRN, or it was cancelled before');
    pickup.cancelled = true;
    return { status: 200, body: { PickupCancelResponse: { Response: { ResponseStatus: { Code: '1', Description: 'Success' } }, PickupType: '01' } } };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    clientId,
    clientSecret,
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

function routeOf(method: string, path: string): { operation: UpsOperation; param?: string } | null {
  if (method === 'POST' && path === '/security/v1/oauth/token') return { operation: 'token' };
  if (method === 'POST' && path === '/api/shipments/v2409/ship') return { operation: 'book' };
  if (method === 'POST' && path === '/api/labels/v1/recovery') return { operation: 'labelRecovery' };
  const voidPath = /^\/api\/shipments\/v2409\/void\/cancel\/([^/]+)$/.exec(path);
  if (method === 'DELETE' && voidPath) return { operation: 'void', param: decodeURIComponent(voidPath[1]!) };
  const trackPath = /^\/api\/track\/v1\/details\/([^/]+)$/.exec(path);
  if (method === 'GET' && trackPath) return { operation: 'track', param: decodeURIComponent(trackPath[1]!) };
  if (method === 'POST' && path === '/api/paperlessdocuments/v2/upload') return { operation: 'paperlessUpload' };
  if (method === 'POST' && path === '/api/pickupcreation/v2409/pickup') return { operation: 'bookPickup' };
  if (method === 'DELETE' && path === '/api/shipments/v2409/pickup/02') return { operation: 'cancelPickup' };
  if (method === 'GET' && /^\/api\/pickup\/v2409\/countries\/[A-Z]{2}$/.test(path)) return { operation: 'countries' };
  return null;
}

/** A schema failure as UPS words it: the element's path and what is wrong with it. */
function schemaError(error: z.ZodError, input: unknown): Answer {
  const issue = error.issues[0]!;
  const path = issue.path.join('/');
  if (issue.code === 'unrecognized_keys') return upsError(400, '120001', `Unknown element ${issue.keys[0]} in ${path || 'the request'}`);
  if (valueAt(input, issue.path) === undefined) return upsError(400, '120002', `Missing ${path}`);
  if (issue.code === 'invalid_value') return upsError(400, '120003', `Invalid value of ${path}`);
  if (issue.code === 'too_big') return upsError(400, '120004', `${path} is too long`);
  return upsError(400, '120005', `Invalid ${path}`);
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** The label UPS would send: ZPL text, or a GIF of a 4 × 6 in label lying on its side. */
function drawLabel(trackingNumber: string, format: 'GIF' | 'ZPL', city: string): string {
  if (format === 'ZPL') {
    const zpl = [
      '^XA',
      '^FO40,40^A0N,50,50^FDUPS^FS',
      `^FO40,120^A0N,30,30^FD${city}^FS`,
      `^FO40,240^BY3^BCN,120,Y,N,N^FD${trackingNumber}^FS`,
      '^XZ',
      '',
    ].join('\n');
    return Buffer.from(zpl, 'utf8').toString('base64');
  }
  const { width, height } = FAKE_GIF_SIZE;
  const indices = new Uint8Array(width * height);
  // A black frame and bars standing for the barcode: enough to see the label is the right way round.
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const frame = x < 8 || y < 8 || x >= width - 8 || y >= height - 8;
      const bars = x > 300 && x < 900 && y > 300 && y < 500 && (x >> 2) % 3 === 0;
      if (frame || bars) indices[y * width + x] = 1;
    }
  }
  return encodeGif(
    width,
    height,
    [
      [255, 255, 255],
      [0, 0, 0],
    ],
    indices,
  ).toString('base64');
}

const upsDate = (at: Date) => at.toISOString().slice(0, 10).replaceAll('-', '');
const upsTime = (at: Date) => at.toISOString().slice(11, 19).replaceAll(':', '');
