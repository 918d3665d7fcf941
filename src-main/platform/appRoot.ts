import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A file every checkout and every package of the app has, and nothing above it does. */
const MARKER = join('src-main', 'db', 'migrations', 'meta', '_journal.json');

/**
 * The folder the app runs from (where package.json is), found by walking up from this module:
 * src-main/platform when run from source (tsx, vitest), out/main/chunks when bundled. The headless
 * server finds its migrations and the built renderer from here, whichever way it was started.
 */
export function appRoot(): string {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, MARKER))) return dir;
    if (dirname(dir) === dir) throw new Error(`Shipdesk's files (${MARKER}) were not found above ${start}`);
  }
}
