/**
 * The one way storefront clients talk HTTP: a timeout on every call, no redirects followed (a
 * redirect could carry the shop's credentials to another host), and failures turned into
 * 422 STOREFRONT_ERROR with a message that never contains a credential.
 */
import { ApiError } from '../../src-shared/errors';

export interface StorefrontTransportOptions {
  fetch?: typeof fetch;
  /**
   * Sends every storefront request to this origin instead of the shop's own (tests use a fake on
   * http://127.0.0.1:<port>). The shop's config is still validated as usual.
   */
  origin?: string;
  timeoutMs?: number;
}

export interface StorefrontTransport {
  fetch: typeof fetch;
  origin: string | undefined;
  timeoutMs: number;
}

/** Issue 22: a shop call answers within 30 s or the run fails (recorded, tried again next interval). */
export const defaultStorefrontTimeoutMs = 30_000;

export function storefrontTransport(options: StorefrontTransportOptions = {}): StorefrontTransport {
  return {
    fetch: options.fetch ?? globalThis.fetch,
    origin: options.origin,
    timeoutMs: options.timeoutMs ?? defaultStorefrontTimeoutMs,
  };
}

/** What a failed shop call means for the user; a read imports nothing, a write-back is tried again. */
export const nothingImported = 'no orders were imported';

export function storefrontError(platform: string, code: string, message: string, consequence: string = nothingImported): ApiError {
  return new ApiError('STOREFRONT_ERROR', `${platform}: ${message}; ${consequence}`, { errors: [{ code, message }] });
}

export interface StorefrontPage {
  body: unknown;
  headers: Headers;
}

export interface StorefrontRequest {
  method?: 'GET' | 'POST' | 'PUT';
  headers: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** At most this long for this call (a caller with a deadline of its own passes what is left of it). */
  timeoutMs?: number;
  /** Added to every error message: what the failure means ("no orders were imported"). */
  consequence?: string;
  /** Statuses answered to the caller instead of thrown (Shopify's GraphQL 429 carries a body worth reading). */
  passStatuses?: number[];
}

export interface StorefrontAnswer extends StorefrontPage {
  status: number;
}

function statusHint(status: number, platform: string): string {
  if (status === 401 || status === 403) return 'the shop refused the credentials; check them in the channel';
  if (status === 402) return 'the shop is frozen (an unpaid Shopify bill); the shop owner has to settle it';
  if (status === 404) return `the ${platform === 'Shopify' ? 'shop or API version' : 'orders address'} was not found; check the shop address in the channel`;
  if (status === 423) return 'the shop is locked by the platform; the shop owner has to contact it';
  if (status === 429) return 'the shop asks to slow down; try again in a minute';
  if (status >= 500) return 'the shop had a problem of its own; it is tried again later';
  return 'the shop answered with an error';
}

/**
 * The shop's own words in an error answer: Shopify's `errors` (a string, or a list of
 * `{message}`), WooCommerce's `message`. At most 200 characters of the first 4 KB; the shop's
 * answer never carries the credentials it was sent.
 */
async function shopMessage(response: Response): Promise<string | null> {
  let text: string;
  try {
    text = (await response.text()).slice(0, 4096);
  } catch {
    return null;
  }
  let said: unknown = null;
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const errors = body?.errors;
    if (typeof errors === 'string') said = errors;
    else if (Array.isArray(errors)) said = (errors[0] as Record<string, unknown> | undefined)?.message;
    else if (typeof body?.message === 'string') said = body.message;
  } catch {
    said = null;
  }
  return typeof said === 'string' && said.trim() ? said.trim().replace(/\s+/g, ' ').slice(0, 200) : null;
}

/**
 * One call to a shop, answered as JSON. `url` is the shop's real address; only the transport may
 * redirect it. Any failure becomes 422 STOREFRONT_ERROR naming the host, never a credential.
 */
export async function storefrontRequest(transport: StorefrontTransport, platform: string, url: URL, request: StorefrontRequest): Promise<StorefrontAnswer> {
  const target = transport.origin ? new URL(url.pathname + url.search, transport.origin) : url;
  // Named by host only: the URL itself may one day carry a credential in its query.
  const where = url.host;
  const timeoutMs = Math.max(1, Math.min(request.timeoutMs ?? transport.timeoutMs, transport.timeoutMs));
  const fail = (code: string, message: string) => storefrontError(platform, code, message, request.consequence);
  let response: Response;
  try {
    response = await transport.fetch(target, {
      method: request.method ?? 'GET',
      headers: { accept: 'application/json', ...(request.body === undefined ? {} : { 'content-type': 'application/json' }), ...request.headers },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw fail('TIMEOUT', `${where} did not answer within ${Math.round(transport.timeoutMs / 1000)} s`);
    }
    throw fail('UNREACHABLE', `${where} could not be reached`);
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    throw fail(`HTTP_${response.status}`, `${where} redirected the request; check the shop address in the channel`);
  }
  if (!response.ok && !request.passStatuses?.includes(response.status)) {
    const said = await shopMessage(response);
    throw fail(
      `HTTP_${response.status}`,
      `${where} answered ${response.status}: ${statusHint(response.status, platform)}${said ? ` (the shop said: "${said}")` : ''}`,
    );
  }
  try {
    return { status: response.status, body: await response.json(), headers: response.headers };
  } catch {
    throw fail('INVALID_RESPONSE', `${where} did not answer with JSON`);
  }
}

/** GETs one page of JSON. `url` is the shop's real address; only the transport may redirect it. */
export async function getStorefrontJson(transport: StorefrontTransport, platform: string, url: URL, headers: Record<string, string>): Promise<StorefrontPage> {
  const { body, headers: answered } = await storefrontRequest(transport, platform, url, { headers });
  return { body, headers: answered };
}
