/**
 * How the write-back (issue 22) talks to a shop: one JSON call with the storefront timeout, no
 * redirects followed, and every failure turned into a ShopWriteError whose message is plain words
 * without a credential, quoting the shop's own words. Whatever failed, the outbox reads the shop back
 * before it writes again (a timeout or a 5xx may have been carried out).
 */
import type { StorefrontTransport } from './http';

export class ShopWriteError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ShopWriteError';
  }
}

export interface ShopAnswer {
  status: number;
  body: unknown;
  headers: Headers;
}

/** The shop's own words from an error body: WooCommerce `{code, message}`, Shopify `{errors}`. */
function shopMessage(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const value = body as Record<string, unknown>;
  if (typeof value.message === 'string' && value.message.trim()) return value.message.trim().slice(0, 300);
  if (typeof value.errors === 'string' && value.errors.trim()) return value.errors.trim().slice(0, 300);
  if (Array.isArray(value.errors)) {
    const messages = value.errors
      .map((error) => (error && typeof error === 'object' ? (error as Record<string, unknown>).message : null))
      .filter((m) => typeof m === 'string');
    if (messages.length) return messages.join('; ').slice(0, 300);
  }
  return null;
}

/** One call; answers the parsed JSON of a 2xx answer, throws ShopWriteError for anything else. */
export async function shopCall(
  transport: StorefrontTransport,
  platform: string,
  method: 'GET' | 'POST' | 'PUT',
  url: URL,
  headers: Record<string, string>,
  body?: unknown,
): Promise<ShopAnswer> {
  const target = transport.origin ? new URL(url.pathname + url.search, transport.origin) : url;
  const where = url.host;
  let response: Response;
  try {
    response = await transport.fetch(target, {
      method,
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(transport.timeoutMs),
    });
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new ShopWriteError('TIMEOUT', `${platform} (${where}) did not answer within ${Math.round(transport.timeoutMs / 1000)} s`);
    }
    throw new ShopWriteError('UNREACHABLE', `${platform} (${where}) could not be reached`);
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    throw new ShopWriteError(`HTTP_${response.status}`, `${platform} (${where}) redirected the request; check the shop address in the channel`);
  }
  let parsed: unknown = null;
  try {
    parsed = await response.json();
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const own = shopMessage(parsed);
    const hint =
      response.status === 401 || response.status === 403
        ? 'the shop refused the credentials or their access; check the key and its permissions in the channel'
        : response.status === 404
          ? 'the shop does not know this order (deleted there?) or the address is wrong'
          : response.status === 429
            ? 'the shop asks to slow down'
            : response.status >= 500
              ? 'the shop had a problem of its own'
              : 'the shop refused the request';
    throw new ShopWriteError(`HTTP_${response.status}`, `${platform} answered ${response.status}: ${hint}${own ? ` ("${own}")` : ''}`);
  }
  if (parsed === null) throw new ShopWriteError('INVALID_RESPONSE', `${platform} (${where}) did not answer with JSON`);
  return { status: response.status, body: parsed, headers: response.headers };
}
