import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * A screen's component loaded when it is first shown (issue 23): the first screen, the shipments
 * list, loads only its own code, and every other screen is a chunk of its own that the shell's
 * Suspense waits for (a local file, so a few milliseconds).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own bound: each screen's props differ
export function lazyScreen<Module extends Record<Name, ComponentType<any>>, Name extends keyof Module & string>(
  load: () => Promise<Module>,
  name: Name,
): LazyExoticComponent<Module[Name]> {
  return lazy(async () => ({ default: (await load())[name] }));
}
