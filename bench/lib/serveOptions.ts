/**
 * The Node options `npm run serve` gives the headless server: read from package.json's `serve`
 * script (`… && node <options> out/main/serve.js`), so the soak runs the server as users do.
 * `options="--flag=value …"` on a bench's command line replaces them, to try others.
 */
import { readFileSync } from 'node:fs';
import { stringArg } from './stats';

function fromPackageJson(): string[] {
  const scripts = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const match = /\bnode((?:\s+--\S+)*)\s+out\/main\/serve\.js/.exec(scripts.serve ?? '');
  return match?.[1]?.trim().split(/\s+/).filter(Boolean) ?? [];
}

const override = stringArg('options');
export const serveNodeOptions: string[] = override !== undefined ? override.split(/\s+/).filter(Boolean) : fromPackageJson();
