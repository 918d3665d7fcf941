import { z } from 'zod';

/**
 * Every failure has a stable code; the HTTP status is derived from it here and nowhere else.
 * HTTP, IPC and the CLI all answer with the same body (decisions §2).
 */
export const errorStatus = {
  VALIDATION_FAILED: 400,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  AUTH_TOKEN_INVALID: 401,
  AUTH_TOKEN_EXPIRED: 401,
  AUTH_INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  ORG_ACCESS_DENIED: 403,
  RESOURCE_LIMIT_REACHED: 403,
  PLAN_LIMITS_EXCEEDED: 403,
  NOT_FOUND: 404,
  ORG_NOT_FOUND: 404,
  SHIPMENT_NOT_FOUND: 404,
  PARCEL_NOT_FOUND: 404,
  ORDER_NOT_FOUND: 404,
  ORDER_CHANNEL_NOT_FOUND: 404,
  CARRIER_NOT_FOUND: 404,
  ADDRESS_NOT_FOUND: 404,
  SHIPPING_RULE_NOT_FOUND: 404,
  TOKEN_NOT_FOUND: 404,
  MEMBER_NOT_FOUND: 404,
  ORG_WEBHOOK_NOT_FOUND: 404,
  PRINTER_NOT_FOUND: 404,
  PRINT_JOB_NOT_FOUND: 404,
  SHIPMENT_DOCUMENT_NOT_FOUND: 404,
  /** A pickup or daily pickup (issue 21). */
  PICKUP_NOT_FOUND: 404,
  SHIPMENT_INVALID_STATE: 409,
  ORDER_INVALID_STATE: 409,
  ORG_SLUG_EXISTS: 409,
  IDEMPOTENCY_CONFLICT: 409,
  CONFLICT: 409,
  /** A close-out with no dispatched shipment waiting to be handed over (issue 21). */
  NOTHING_TO_CLOSE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PARCEL_INVALID_SPLIT: 422,
  SHIPMENT_INCOMPLETE: 422,
  NO_MATCHING_SHIPPING_RULE: 422,
  RETURN_RULE_MISSING: 422,
  CARRIER_ERROR: 422,
  /** The carrier has no pickup booking through its API: book it with the carrier by phone or on its website. */
  PICKUP_NOT_SUPPORTED: 422,
  /** The carrier refused the credentials (decisions §13). */
  CARRIER_AUTH_FAILED: 422,
  /** A booking call whose outcome is unknown; 409 when a send is refused until `confirmRebook` (decisions §13). */
  CARRIER_OUTCOME_UNKNOWN: 422,
  STOREFRONT_ERROR: 422,
  PRINTER_OFFLINE: 422,
  DOCUMENT_FORMAT_UNAVAILABLE: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  /** The server is shutting down: try again in a moment (the answer closes the connection). */
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/** The one code answered with two statuses: 422 when the outcome became unknown, 409 when a send is refused for it. */
const otherStatus: Partial<Record<ErrorCode, readonly number[]>> = { CARRIER_OUTCOME_UNKNOWN: [409] };
export const errorCodes = Object.keys(errorStatus) as ErrorCode[];

export const httpReason: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export const errorDetailSchema = z.object({ path: z.string(), message: z.string() });
export const carrierErrorSchema = z.object({ code: z.string(), message: z.string() });

export const errorBodySchema = z.object({
  code: z.string(),
  error: z.string(),
  message: z.string(),
  details: z.array(errorDetailSchema).optional(),
  errors: z.array(carrierErrorSchema).optional(),
});

export type ErrorDetail = z.infer<typeof errorDetailSchema>;
export type CarrierErrorItem = z.infer<typeof carrierErrorSchema>;
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** The one error type thrown by services and rethrown by the typed client. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;
  readonly errors: CarrierErrorItem[] | undefined;

  constructor(code: ErrorCode, message: string, extra: { details?: ErrorDetail[]; errors?: CarrierErrorItem[]; status?: number } = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = extra.status !== undefined && otherStatus[code]?.includes(extra.status) ? extra.status : errorStatus[code];
    this.details = extra.details;
    this.errors = extra.errors;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = {
      code: this.code,
      error: httpReason[this.status] ?? 'Error',
      message: this.message,
    };
    if (this.details) body.details = this.details;
    if (this.errors) body.errors = this.errors;
    return body;
  }

  static fromBody(body: ErrorBody, status?: number): ApiError {
    const code = (body.code in errorStatus ? body.code : 'INTERNAL_ERROR') as ErrorCode;
    const extra: { details?: ErrorDetail[]; errors?: CarrierErrorItem[]; status?: number } = {};
    // Over IPC only the body travels: its reason phrase tells a 409 from a 422.
    const said = status ?? Number(Object.entries(httpReason).find(([, reason]) => reason === body.error)?.[0]);
    if (Number.isInteger(said)) extra.status = said;
    if (body.details) extra.details = body.details;
    if (body.errors) extra.errors = body.errors;
    return new ApiError(code, body.message, extra);
  }
}

/** decisions §1 "Bounded work": a 400 lists at most this many problems. */
export const MAX_DETAILS = 100;

type IssueLike = { path: readonly PropertyKey[]; message: string; code?: string; keys?: readonly string[] };

/**
 * Turns zod issues into the `details[]` of a VALIDATION_FAILED error: at most MAX_DETAILS of them,
 * read one by one (the issues may be produced lazily) and stopping there, so the work does not grow
 * with the number of problems a body holds (80 000 unknown keys are one issue with 80 000 keys).
 */
export function validationError(where: string, issues: Iterable<IssueLike>): ApiError {
  const pathOf = (parts: readonly PropertyKey[]) => [where, ...parts.map(String)].filter(Boolean).join('.');
  const details: ErrorDetail[] = [];
  // Two checks can say the same thing (past the largest safe integer is both "not an integer" and
  // "too big", worded alike): each detail once, looked up in a set rather than the list so far.
  const seen = new Set<string>();
  let more = false;
  const add = (path: string, message: string): boolean => {
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) return true;
    if (details.length === MAX_DETAILS) {
      more = true;
      return false;
    }
    seen.add(key);
    details.push({ path, message });
    return true;
  };
  outer: for (const issue of issues) {
    // An unknown field is reported at its own path, so a form can mark it like any other field.
    if (issue.code === 'unrecognized_keys' && issue.keys?.length) {
      for (const key of issue.keys) if (!add(pathOf([...issue.path, key]), `Unknown field "${key}"`)) break outer;
    } else if (!add(pathOf(issue.path), issue.message)) break;
  }
  const first = details[0];
  const message = first
    ? `Invalid ${first.path}: ${first.message}${more ? ` (the first ${MAX_DETAILS} problems are listed; there are more)` : ''}`
    : `Invalid ${where}`;
  return new ApiError('VALIDATION_FAILED', message, { details });
}
