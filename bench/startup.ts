/**
 * Start-up: how long the headless server (`npm run serve`, the built out/main/serve.js) takes from
 * the process's start to "Shipdesk listening on …", on an existing database, against a floor
 * measured in the same run: a bare Node process that loads Fastify and better-sqlite3, opens the same
 * SQLite file and listens (bench/lib/startupFloor.mjs). The two alternate, `runs` times each, so a
 * busy moment of the machine colours both. Also per run: the first `GET /health` answered and the
 * app's page (`GET /`) served, both counted from the process's start, and the RSS at "listening".
 * One more run of each counts the modules loaded before listening (a module.registerHooks hook).
 * Last, the built renderer: what the first screen loads (the entry script and the chunks the page
 * preloads) against everything built, for the desktop window and the browser alike.
 *
 * The server runs with the Node options of package.json's `serve` script (bench/lib/serveOptions.ts).
 *
 * Run: npx tsx bench/startup.ts [runs=7] [build=1]   (build=0 uses out/ as it is)
 * Prints figures, asserts nothing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineLine, median, numberArg } from './lib/stats';
import { serveNodeOptions } from './lib/serveOptions';

const runs = Math.max(1, Math.round(numberArg('runs', 7)));
const build = numberArg('build', 1) !== 0;
const TARGET_MS = 1500;
const root = fileURLToPath(new URL('..', import.meta.url));
const serveJs = join(root, 'out', 'main', 'serve.js');
const floorJs = join(root, 'bench', 'lib', 'startupFloor.mjs');

console.log(`bench/startup: ${machineLine()}`);
if (build) {
  const built = spawnSync('npm', ['run', 'build', '--', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('npm run build failed');
}
if (!existsSync(serveJs)) throw new Error(`${serveJs} is missing: run npm run build (or this bench without build=0)`);

// Counts every module loaded (ESM and CommonJS), written to stderr as the process exits.
const countHook =
  'data:text/javascript,' +
  encodeURIComponent(
    `import { registerHooks } from 'node:module';
let count = 0;
registerHooks({ load(url, context, next) { count++; return next(url, context); } });
process.on('exit', () => process.stderr.write('modules loaded: ' + count + '\\n'));`,
  );

interface Run {
  listeningMs: number;
  healthMs: number;
  pageMs: number | null;
  rssMb: number;
  modules: number | null;
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

/** Starts `args` with the same node, waits for its "listening on <url>" line, asks /health and /, stops it. */
async function startOnce(args: string[], env: NodeJS.ProcessEnv, countModules: boolean): Promise<Run> {
  const started = performance.now();
  const child = spawn(process.execPath, countModules ? ['--import', countHook, ...args] : args, { cwd: root, env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve(match[1] as string);
    });
    void exited.then((code) => reject(new Error(`${args.join(' ')} exited (${code}) before listening: ${stderr || stdout}`)));
  });
  const listeningMs = performance.now() - started;
  const rssMb = rssOf(child.pid as number);
  const health = await fetch(`${url}/health`);
  await health.arrayBuffer();
  const healthMs = performance.now() - started;
  let pageMs: number | null = null;
  if (args.includes(serveJs)) {
    const page = await fetch(`${url}/`);
    const html = await page.text();
    if (page.ok && html.includes('<script')) pageMs = performance.now() - started;
  }
  child.kill('SIGTERM');
  await exited;
  const modules = /modules loaded: (\d+)/.exec(stderr);
  return { listeningMs, healthMs, pageMs, rssMb, modules: modules ? Number(modules[1]) : null };
}

const dataDir = mkdtempSync(join(tmpdir(), 'shipdesk-bench-'));
const stop = () => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(130);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
try {
  const serveEnv = { SHIPDESK_DATA_DIR: dataDir, SHIPDESK_PORT: '0', SHIPDESK_HOST: '127.0.0.1' };
  // The first start creates the database (migrations from nothing): an installation's first run, not a cold start.
  const first = await startOnce([serveJs], serveEnv, false);
  console.log(`first run (creates the database): listening after ${first.listeningMs.toFixed(0)} ms`);
  const sqliteFile = join(dataDir, 'shipdesk.sqlite');

  const real: Run[] = [];
  const floor: Run[] = [];
  for (let index = 0; index < runs; index++) {
    const shipdesk = await startOnce([...serveNodeOptions, serveJs], serveEnv, false);
    real.push(shipdesk);
    const bare = await startOnce([floorJs, sqliteFile], {}, false);
    floor.push(bare);
    console.log(
      `run ${index + 1}: shipdesk listening ${shipdesk.listeningMs.toFixed(0)} ms, /health answered ${shipdesk.healthMs.toFixed(0)} ms, ` +
        `page served ${shipdesk.pageMs === null ? 'n/a (no built renderer)' : `${shipdesk.pageMs.toFixed(0)} ms`}, RSS ${shipdesk.rssMb.toFixed(0)} MB` +
        `  | floor listening ${bare.listeningMs.toFixed(0)} ms, /health ${bare.healthMs.toFixed(0)} ms, RSS ${bare.rssMb.toFixed(0)} MB`,
    );
  }
  const counted = await startOnce([...serveNodeOptions, serveJs], serveEnv, true);
  const countedFloor = await startOnce([floorJs, sqliteFile], {}, true);

  const range = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
  const listening = real.map((run) => run.listeningMs);
  const floorListening = floor.map((run) => run.listeningMs);
  const ratios = real.map((run, index) => run.listeningMs / (floor[index] as Run).listeningMs);
  const verdict = median(listening) < TARGET_MS ? 'met' : 'MISSED';
  console.log('summary:');
  console.log(
    `  cold start to listening: median ${median(listening).toFixed(0)} ms (${range(listening)}) vs floor ${median(floorListening).toFixed(0)} ms ` +
      `(${range(floorListening)}) = ${median(ratios).toFixed(2)}× the floor (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}); target < ${TARGET_MS} ms: ${verdict}`,
  );
  console.log(
    `  first /health answered: median ${median(real.map((run) => run.healthMs)).toFixed(0)} ms vs floor ${median(floor.map((run) => run.healthMs)).toFixed(0)} ms; ` +
      `app page served: median ${median(real.flatMap((run) => (run.pageMs === null ? [] : [run.pageMs]))).toFixed(0)} ms`,
  );
  console.log(
    `  RSS at listening: median ${median(real.map((run) => run.rssMb)).toFixed(0)} MB vs floor ${median(floor.map((run) => run.rssMb)).toFixed(0)} MB; ` +
      `modules loaded before listening: ${counted.modules ?? '?'} vs floor ${countedFloor.modules ?? '?'}`,
  );

  // The renderer: what the first screen loads against everything built.
  const rendererDir = join(root, 'out', 'renderer');
  const indexHtml = join(rendererDir, 'index.html');
  if (existsSync(indexHtml)) {
    const html = readFileSync(indexHtml, 'utf8');
    const firstLoad = [...html.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1] as string);
    const kb = (file: string) => statSync(join(rendererDir, file)).size / 1024;
    const all = readdirSync(join(rendererDir, 'assets')).filter((file) => /\.(js|css)$/.test(file));
    const firstKb = firstLoad.reduce((sum, file) => sum + kb(file), 0);
    const allKb = all.reduce((sum, file) => sum + kb(`assets/${file}`), 0);
    console.log(
      `  renderer: the first screen loads ${firstLoad.length} files, ${firstKb.toFixed(0)} kB (${firstLoad.map((file) => `${file.replace('assets/', '')} ${kb(file).toFixed(0)} kB`).join(', ')}); ` +
        `${all.length} files, ${allKb.toFixed(0)} kB built in all`,
    );
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
