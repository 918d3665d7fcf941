import { ApiError, type ErrorCode } from '../../../src-shared/errors';
import { sendFailureAdvice } from '../lib/sendFailure';
import { withoutIds } from '../lib/plainIds';

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
  NOTHING_TO_CLOSE: 'Nothing is waiting to be handed over.',
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
  /** Field problems of a VALIDATION_FAILED answer, as "Receiver's postal code is required". */
  fieldProblems: string[];
  /** What to do next when the server's words do not say it (a send whose outcome is unknown). */
  advice: string | null;
}

/** API field names whose words are not the ones the forms show. */
const fieldWords: Record<string, string> = {
  zipcode: 'postal code',
  email: 'e-mail',
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
  eoriNumber: 'EORI number',
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

/** What a form knows that the API's field path does not say: which party is party 2. */
export interface FieldContext {
  /** The type of each party in the body's order: `parties.1` is then "Receiver", not "party 2". */
  partyTypes?: readonly string[];
}

const capitalized = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

/** The item of a list as the form shows it: "Receiver", "Parcel 1", "order line 3". */
function itemName(list: string | undefined, index: number, context: FieldContext): string {
  const type = list === 'parties' ? context.partyTypes?.[index] : undefined;
  if (type) return capitalized(type.replace(/_/g, ' '));
  return `${list === undefined ? 'item' : (itemWords[list] ?? fieldWord(list))} ${index + 1}`;
}

/**
 * An API field path in the words of the form's labels (issue 20: never "party 2 › email"):
 * `body.parties.1.email` → "Receiver's e-mail" (with the parties' types), `body.zipcode` → "Postal
 * code", `body.parcels.0.orderLines.2.tarrifNumber` → "Tariff number of order line 3 in parcel 1",
 * `body.receivingCountries.3` → "Receiving country 4". The body itself is "".
 */
export function fieldLabel(path: string, context: FieldContext = {}): string {
  const parts = path
    .replace(/^(body|query|params)\.?/, '')
    .split('.')
    .filter(Boolean);
  const isIndex = (part: string | undefined) => part !== undefined && /^\d+$/.test(part);
  const owners: string[] = [];
  let field: string | null = null;
  parts.forEach((part, i) => {
    if (isIndex(part)) owners.push(itemName(parts[i - 1], Number(part), context));
    // A list's name is said with its item's number; of nested objects (dimensions.length) the last part says it.
    else if (!isIndex(parts[i + 1])) field = fieldWord(part);
  });
  const named = field as string | null;
  if (named === null) return owners.length ? capitalized([...owners].reverse().join(' in ').toLowerCase()) : '';
  if (owners.length === 0) return capitalized(named);
  if (owners.length === 1) return `${capitalized(owners[0] as string)}'s ${named}`;
  return `${capitalized(named)} of ${[...owners].reverse().join(' in ').toLowerCase()}`;
}

/** "Name is required", "Receiver's e-mail: Not a valid email address": a field's problem as one sentence. */
export function fieldProblem(label: string, message: string): string {
  if (!label) return message;
  return message === 'Required' ? `${label} is required` : `${label}: ${message}`;
}

export function describeError(error: unknown, context: FieldContext = {}): DescribedError {
  if (error instanceof ApiError) {
    // A problem of the whole body (a file that cannot be read) has no field to name; each is said once.
    const fieldProblems = [...new Set((error.details ?? []).map((detail) => fieldProblem(fieldLabel(detail.path, context), withoutIds(detail.message))))];
    return {
      summary: plainWords[error.code] ?? 'That did not work.',
      // For field problems the list says it better than the server's one-line summary.
      detail: fieldProblems.length ? '' : withoutIds(error.message),
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
export function ErrorNotice({ error, title, fields }: { error: unknown; title?: string; fields?: FieldContext }) {
  if (!error) return null;
  const described = describeError(error, fields);
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
