import { useSyncExternalStore, type AnchorHTMLAttributes, type ReactNode } from 'react';

/**
 * Hash routing (`#/shipments/shp_…`): it works the same under Electron's app:// protocol and from the
 * headless server, with no server-side fallback needed.
 */
function currentPath(): string {
  const hash = window.location.hash.replace(/^#/, '');
  return hash.startsWith('/') ? hash : '/';
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

export function useRoutePath(): string {
  return useSyncExternalStore(subscribe, currentPath, () => '/');
}

export function navigate(path: string): void {
  window.location.hash = path;
}

/** `/shipments/:shipmentId` against `/shipments/shp_1` → `{ shipmentId: 'shp_1' }`, or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('?')[0]?.split('/').filter(Boolean) ?? [];
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i] as string;
    const value = have[i] as string;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(value);
    else if (part !== value) return null;
  }
  return params;
}

/**
 * How deep `base` (a path without parameters, e.g. `/shipments`) contains `path`: its number of
 * segments when `path` is `base` itself or lies below it (`/shipments/shp_1`), else null. The navigation
 * marks the deepest match, so `/settings/…` screens do not all light up for one another.
 */
export function pathWithin(base: string, path: string): number | null {
  const want = base.split('/').filter(Boolean);
  const have = path.split('?')[0]?.split('/').filter(Boolean) ?? [];
  if (want.length > have.length) return null;
  return want.every((part, i) => part === have[i]) ? want.length : null;
}

export function Link({ to, children, ...rest }: { to: string; children: ReactNode } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  return (
    <a href={`#${to}`} {...rest}>
      {children}
    </a>
  );
}
