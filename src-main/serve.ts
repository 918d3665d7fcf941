/**
 * `npm run serve`'s entry (out/main/serve.js): turns on Node's compile cache, then loads the server
 * (serveMain.ts). Parsing and compiling the bundle's chunks was a fifth of a cold start (issue 23);
 * with the cache, a start after the first reads V8's code from the OS temp folder instead (Node
 * checks it against the source and compiles anew when they differ). It must be turned on before the
 * chunks load, hence this separate entry and the dynamic import.
 */
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./serveMain');
