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

export function storefrontError(platform: string, code: string, message: string): ApiError {
  return new ApiError('STOREFRONT_ERROR', `${platform}: ${message}; no orders were imported`, { errors: [{ code, message }] });
}

export interface StorefrontPage {
  body: unknown;
  headers: Headers;
}

/** GETs one page of JSON. `url` is the shop's real address; only the transport may redirect it. */
export async function getStorefrontJson(transport: StorefrontTransport, platform: string, url: URL, headers: Record<string, string>): Promise<StorefrontPage> {
  const target = transport.origin ? new URL(url.pathname + url.search, transport.origin) : url;
  // Named by host only: the URL itself may one day carry a credential in its query.
  const where = url.host;
  let response: Response;
  try {
    response = await transport.fetch(target, {
      method: 'GET',
      headers: { accept: 'application/json', ...headers },
      redirect: 'manual',
      signal: AbortSignal.timeout(transport.timeoutMs),
    });
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw storefrontError(platform, 'TIMEOUT', `${where} did not answer within ${Math.round(transport.timeoutMs / 1000)} s`);
    }
    throw storefrontError(platform, 'UNREACHABLE', `${where} could not be reached`);
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    throw storefrontError(platform, `HTTP_${response.status}`, `${where} redirected the request; check the shop address in the channel`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    const hint =
      response.status === 401 || response.status === 403
        ? 'the shop refused the credentials; check them in the channel'
        : response.status === 404
          ? 'the orders address was not found; check the shop address in the channel'
          : response.status === 429
            ? 'the shop asks to slow down; try again in a minute'
            : 'the shop answered with an error';
    throw storefrontError(platform, `HTTP_${response.status}`, `${where} answered ${response.status}: ${hint}`);
  }
  try {
    return { body: await response.json(), headers: response.headers };
  } catch {
    throw storefrontError(platform, 'INVALID_RESPONSE', `${where} did not answer with JSON`);
  }
}
