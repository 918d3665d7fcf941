import { ApiError, type ErrorCode } from '../../../src-shared/errors';
import { sendFailureAdvice } from '../lib/sendFailure';

/** What went wrong, in the words of someone at a packing station; the server's text follows it. */
const plainWords: Partial<Record<ErrorCode, string>> = {
  VALIDATION_FAILED: 'Some fields need attention.',
  BAD_REQUEST: 'Shipdesk could not read that request.',
  UNAUTHORIZED: 'Please sign in again.',
  AUTH_TOKEN_EXPIRED: 'Your session has ended. Please sign in again.',
  AUTH_TOKEN_INVALID: 'Please sign in again.',
  AUTH_INVALID_CREDENTIALS: 'That email and password do not match.',
  FORBIDDEN: 'Your role does not allow this.',
  ORG_ACCESS_DENIED: 'You do not have access to this organization.',
  RESOURCE_LIMIT_REACHED: 'Your plan’s limit is reached.',
  PLAN_LIMITS_EXCEEDED: 'This month’s shipments on your plan are used up.',
  SHIPMENT_NOT_FOUND: 'That shipment no longer exists.',
  ORDER_NOT_FOUND: 'That order no longer exists.',
  ORDER_CHANNEL_NOT_FOUND: 'That order channel no longer exists.',
  MEMBER_NOT_FOUND: 'That person is no longer a member of this organization.',
  SHIPMENT_INVALID_STATE: 'The shipment’s status does not allow this.',
  ORDER_INVALID_STATE: 'The order’s status does not allow this.',
  PARCEL_INVALID_SPLIT: 'That split is not possible.',
  SHIPMENT_INCOMPLETE: 'The shipment is missing information before it can be sent.',
  NO_MATCHING_SHIPPING_RULE: 'No shipping rule fits this order; choose a carrier and product.',
  RETURN_RULE_MISSING: 'No return product is set up for this carrier.',
  CARRIER_ERROR: 'The carrier said no.',
  CARRIER_AUTH_FAILED: 'The carrier refused the credentials.',
  CARRIER_OUTCOME_UNKNOWN: 'The carrier did not say whether it booked the shipment.',
  STOREFRONT_ERROR: 'The shop could not be reached or refused the request; no orders were imported.',
  PRINTER_OFFLINE: 'The printer cannot be reached.',
  RATE_LIMITED: 'Too many failed sign-ins. Wait a minute and try again.',
  INTERNAL_ERROR: 'Something went wrong inside Shipdesk.',
  SERVICE_UNAVAILABLE: 'Shipdesk is busy or stopping; try again in a moment.',
};

export interface DescribedError {
  summary: string;
  detail: string;
  code: string;
  carrierErrors: { code: string; message: string }[];
  /** Field problems of a VALIDATION_FAILED answer, as "Postal code (receiver): Required". */
  fieldProblems: string[];
  /** What to do next when the server's words do not say it (a send whose outcome is unknown). */
  advice: string | null;
}

/** API field names whose words are not the ones the forms show. */
const fieldWords: Record<string, string> = {
  zipcode: 'postal code',
  address1: 'address line 1',
  address2: 'address line 2',
  attContact: 'contact person',
  countryCode: 'country',
  tarrifNumber: 'tariff number',
  orderChannelId: 'order channel',
  senderAddressId: 'sender address',
  carrierId: 'carrier',
  productId: 'product',
  labelSize: 'media loaded',
  labelPrinterId: 'label printer',
  documentPrinterId: 'document printer',
  returnShippingRuleId: 'return rule',
  orgName: 'organization name',
  state: 'state or region',
  slug: 'short name (slug)',
  vatNumber: 'VAT number',
  trackingPrefix: 'tracking number prefix',
  trackingUrlTemplate: 'tracking page URL',
  target: 'queue, address or folder',
  expiresInDays: 'expires after (days)',
  scopes: 'access',
  conditions: 'condition',
  min: 'from',
  max: 'to',
};

/** One part of an API field path in the words its form field is labelled with: `zipcode` → "postal code". */
export function fieldWord(part: string): string {
  return fieldWords[part] ?? part.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** A list's items are named one at a time: `parties.1` is "party 2". */
const itemWords: Record<string, string> = {
  parties: 'party',
  parcels: 'parcel',
  orderLines: 'order line',
  conditions: 'condition',
  shipments: 'shipment',
  receivingCountries: 'receiving country',
  additionalParameters: 'parameter',
  attributes: 'attribute',
  services: 'service',
  scopes: 'access',
};

/** `body.parties.1.postalCode` → "party 2 › postal code"; `body.zipcode` → "postal code". */
export function fieldLabel(path: string): string {
  const parts = path
    .replace(/^(body|query|params)\.?/, '')
    .split('.')
    .filter(Boolean);
  const isIndex = (part: string | undefined) => part !== undefined && /^\d+$/.test(part);
  const words: string[] = [];
  parts.forEach((part, i) => {
    const list = parts[i - 1];
    if (isIndex(part)) words.push(`${list === undefined ? 'item' : (itemWords[list] ?? fieldWord(list))} ${Number(part) + 1}`);
    // A list's name is said with its item's number, not as a step of its own.
    else if (!isIndex(parts[i + 1])) words.push(fieldWord(part));
  });
  return words.join(' › ');
}

export function describeError(error: unknown): DescribedError {
  if (error instanceof ApiError) {
    // A problem of the whole body (a file that cannot be read) has no field to name; each is said once.
    const fieldProblems = [
      ...new Set(
        (error.details ?? []).map((detail) => {
          const label = fieldLabel(detail.path);
          return label ? `${label}: ${detail.message}` : detail.message;
        }),
      ),
    ];
    return {
      summary: plainWords[error.code] ?? 'That did not work.',
      // For field problems the list says it better than the server's one-line summary.
      detail: fieldProblems.length ? '' : error.message,
      code: error.code,
      carrierErrors: error.errors ?? [],
      fieldProblems,
      advice: sendFailureAdvice(error),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { summary: 'Shipdesk cannot be reached.', detail: message, code: 'NETWORK', carrierErrors: [], fieldProblems: [], advice: null };
}

/** An error as a warehouse user reads it, with the code at hand for support. */
export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const described = describeError(error);
  return (
    <div role="alert" className="error-notice">
      <strong>{title ?? described.summary}</strong>
      {described.detail && <p>{described.detail}</p>}
      {described.fieldProblems.length > 0 && (
        <ul>
          {described.fieldProblems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      {described.carrierErrors.length > 0 && (
        <ul>
          {described.carrierErrors.map((item) => (
            <li key={item.code + item.message}>
              {item.message} <code>{item.code}</code>
            </li>
          ))}
        </ul>
      )}
      {described.advice && (
        <p className="error-advice">
          <strong>What to do:</strong> {described.advice}
        </p>
      )}
      <small>
        Error code <code>{described.code}</code>
      </small>
    </div>
  );
}
