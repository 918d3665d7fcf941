/**
 * `npm run bench`: every benchmark in bench/ one after another, each in its own process (so one's
 * heap, JIT state and open files never colour the next), with its output streamed as it comes.
 * Known ones run first in a fixed order; any other bench/*.ts after them, by name.
 * `npm run bench -- only=list,http` picks some. Every other `name=value` argument is handed to each
 * benchmark run (`npm run bench -- only=soak minutes=15`). Benchmarks print figures and assert
 * nothing; one that crashes is reported at the end and makes the exit code 1.
 *
 * A benchmark still running after its time limit is ended, so `npm run bench` always stops by itself:
 * 5 minutes, or for the soak its `minutes` (3 by default) plus 5 for the build, set-up and summary;
 * `limit=<minutes>` sets another for all. (The limit was a flat 5 minutes, which ended a 15-minute
 * soak a third of the way through.)
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { machineLine, numberArg, stringArg } from './lib/stats';

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const preferredOrder = ['http', 'list', 'labels', 'batchSplit', 'startup', 'soak'];
const DEFAULT_LIMIT_MINUTES = 5;
/** What a benchmark needs besides its own `minutes` (a build, set-up, the summary). */
const SOAK_MARGIN_MINUTES = 5;
/** Arguments for the benchmarks themselves: everything but this runner's own. */
const passedArgs = process.argv.slice(2).filter((arg) => !arg.startsWith('only=') && !arg.startsWith('limit='));

function limitMinutes(name: string): number {
  const limit = numberArg('limit', 0);
  if (limit > 0) return limit;
  if (name === 'soak') return numberArg('minutes', 3) + SOAK_MARGIN_MINUTES;
  return DEFAULT_LIMIT_MINUTES;
}

const found = readdirSync(benchDir)
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && file !== 'run.ts')
  .map((file) => file.slice(0, -'.ts'.length));
const ordered = [...preferredOrder.filter((name) => found.includes(name)), ...found.filter((name) => !preferredOrder.includes(name)).sort()];
const only = stringArg('only')?.split(',');
const selected = only ? ordered.filter((name) => only.includes(name)) : ordered;

function runBenchmark(name: string): Promise<{ code: number | null; seconds: number }> {
  const file = join(benchDir, `${name}.ts`);
  if (!existsSync(file)) return Promise.resolve({ code: null, seconds: 0 });
  const started = performance.now();
  // The same Node and TypeScript loader as this process; output goes straight to ours. gc() is
  // exposed for the soak's memory readings; the others never call it.
  const child = spawn(process.execPath, ['--expose-gc', '--import', import.meta.resolve('tsx'), file, ...passedArgs], { stdio: 'inherit' });
  const minutes = limitMinutes(name);
  const timer = setTimeout(() => {
    console.error(`bench ${name}: still running after ${minutes} min, ending it (limit=<minutes> allows more)`);
    child.kill('SIGTERM');
  }, minutes * 60_000);
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : null), seconds: (performance.now() - started) / 1000 });
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      console.error(`bench ${name}: could not start: ${error.message}`);
      resolve({ code: 1, seconds: (performance.now() - started) / 1000 });
    });
  });
}

const unknown = only?.filter((name) => !ordered.includes(name)) ?? [];
if (unknown.length) console.log(`no benchmark named ${unknown.join(', ')} in bench/ (there are: ${ordered.join(', ')})`);
console.log(`npm run bench: ${selected.join(', ') || 'nothing to run'} — ${machineLine()}`);

const failed: string[] = [];
for (const name of selected) {
  console.log(`\n=== bench/${name}.ts ===`);
  const { code, seconds } = await runBenchmark(name);
  console.log(`=== bench/${name}.ts ${code === 0 ? 'done' : `FAILED (exit ${code})`} in ${seconds.toFixed(1)} s ===`);
  if (code !== 0) failed.push(name);
}
if (failed.length) {
  console.log(`\n${failed.length} benchmark(s) failed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
