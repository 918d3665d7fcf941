import { readFileSync } from 'node:fs';
import { rendererContentType, resolveRendererFile } from '../http/renderer';

/**
 * The `app://` protocol that serves the built renderer inside Electron (instead of file://, whose
 * pages may read any local file). Pure logic, no electron import, so it is tested under plain Node;
 * main.ts only adapts it to `protocol.handle`.
 */

export const APP_SCHEME = 'app';
export const APP_HOST = 'shipdesk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

export interface AppRequest {
  method: string;
  url: string;
}

export interface AppResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

/** `app://shipdesk/...`; custom schemes have no URL origin in Node ("null"), so compare the parts. */
export function isAppUrl(url: string | undefined | null): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}

export function handleAppRequest(rendererDir: string, request: AppRequest): AppResponse {
  const response = respond(rendererDir, request);
  return request.method === 'HEAD' ? { ...response, body: null } : response;
}

function respond(rendererDir: string, request: AppRequest): AppResponse {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return text(405, 'Method not allowed', { allow: 'GET, HEAD' });
  }
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return text(400, 'Bad request');
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return text(404, 'Not found');
  // The raw (still encoded) path goes to the guard, which decodes it once and refuses what leaves the folder.
  const file = resolveRendererFile(rendererDir, url.pathname);
  if (!file) return text(404, 'Not found');
  const headers = {
    'content-type': rendererContentType(file),
    'x-content-type-options': 'nosniff',
    // Built assets are content-hashed; index.html must be re-read so an update takes effect.
    'cache-control': 'no-cache',
  };
  return { status: 200, headers, body: readFileSync(file) };
}

function text(status: number, message: string, extra: Record<string, string> = {}): AppResponse {
  return {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', ...extra },
    body: new TextEncoder().encode(message),
  };
}

/**
 * The pages that may call IPC and be navigated to: `app://shipdesk` and, in development only, the
 * electron-vite dev server (ELECTRON_RENDERER_URL).
 */
export function trustedPageCheck(devServerUrl?: string): (url: string | null | undefined) => boolean {
  let devOrigin: string | null = null;
  if (devServerUrl) {
    try {
      devOrigin = new URL(devServerUrl).origin;
    } catch {
      devOrigin = null;
    }
  }
  return (url) => {
    if (isAppUrl(url)) return true;
    if (!devOrigin || !url) return false;
    try {
      return new URL(url).origin === devOrigin;
    } catch {
      return false;
    }
  };
}
