import type { CarrierConfig } from '../adapter';

/**
 * Where a carrier's documented endpoint is reached (decisions §13): its sandbox or production origin
 * by `testMode`, and `apiBaseUrl`, when set, replacing only the scheme, host and port, so the
 * documented path stays whole (a proxy, or a fake in tests).
 */
export function carrierUrl(config: CarrierConfig, origins: { production: string; sandbox: string }, path: string): string {
  const documented = new URL(isTestMode(config) ? origins.sandbox : origins.production);
  const base = typeof config.apiBaseUrl === 'string' && config.apiBaseUrl !== '' ? new URL(config.apiBaseUrl) : null;
  const origin = base ? base.origin : documented.origin;
  return `${origin}${documented.pathname.replace(/\/$/, '')}${path}`;
}

/**
 * For a gateway whose base URL is the user's own server (Karrio): the whole prefix is theirs and the
 * gateway's paths follow it.
 */
export function gatewayUrl(config: CarrierConfig, path: string): string {
  const base = typeof config.apiBaseUrl === 'string' ? config.apiBaseUrl.replace(/\/+$/, '') : '';
  return `${base}${path}`;
}

/** decisions §13: true until the user switches it off, so nothing real is booked by a first try. */
export function isTestMode(config: CarrierConfig): boolean {
  return config.testMode !== false;
}
