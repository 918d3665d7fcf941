import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/**
 * Maps a URL path to a file inside the built renderer, or null. The path guard refuses anything
 * that would leave `root` (`..`, encoded separators, absolute paths). Shared by the headless server
 * and the Electron `app://` protocol handler.
 */
export function resolveRendererFile(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0]?.split('#')[0] ?? '/');
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const base = resolve(root);
  const file = resolve(base, normalize(relative));
  if (file !== base && !file.startsWith(base + sep)) return null;
  if (!existsSync(file) || !statSync(file).isFile()) return null;
  return file;
}

export function rendererContentType(file: string): string {
  return contentTypes[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Headers of every renderer file, from either door (headless server, Electron `app://`): the
 * declared type is the only one, and index.html is re-read so an update takes effect (the built
 * assets are content-hashed).
 */
export function rendererHeaders(file: string): Record<string, string> {
  return { 'content-type': rendererContentType(file), 'x-content-type-options': 'nosniff', 'cache-control': 'no-cache' };
}

/** What a path or query of the app may be made of; anything else is not an app page (nor safe in a Location). */
const appPagePath = /^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]*)+$/;
const appPageQuery = /^[A-Za-z0-9._~!$&'()*+,;=:@%/?-]*$/;

/**
 * Where a browser asking for a page of the app by its path (`/shipments/shp_1`, a bookmark or a
 * link typed without `#`) is sent: the same page by hash (`/#/shipments/shp_1`), because the
 * renderer routes by hash and loads its assets relative to `/`. Null when the request is not for a
 * page: not a browser navigation (`Accept` without text/html), under one of the API's roots (an
 * unknown API path stays a JSON 404), or a file name (a missing asset stays a 404).
 */
export function rendererPageRedirect(url: string, accept: string | undefined, apiRoots: ReadonlySet<string>): string | null {
  if (!accept?.toLowerCase().includes('text/html')) return null;
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const query = queryStart === -1 ? '' : url.slice(queryStart + 1);
  if (path === '/' || path.startsWith('//') || !appPagePath.test(path) || !appPageQuery.test(query)) return null;
  const segments = path.split('/');
  if (apiRoots.has((segments[1] ?? '').toLowerCase())) return null;
  if ((segments.at(-1) ?? '').includes('.')) return null;
  return `/#${path}${query ? `?${query}` : ''}`;
}

export function readRendererFile(file: string): Buffer {
  return readFileSync(file);
}

export function rendererIndex(root: string): string | null {
  const file = join(root, 'index.html');
  return existsSync(file) ? file : null;
}
