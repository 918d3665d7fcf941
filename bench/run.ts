/**
 * `npm run bench`: every benchmark in bench/ one after another, each in its own process (so one's
 * heap, JIT state and open files never colour the next), with its output streamed as it comes.
 * Known ones run first in a fixed order; any other bench/*.ts after them, by name.
 * `npm run bench -- only=list,http` picks some. Each runs with its default settings (their own
 * arguments differ; run one directly to change them). Benchmarks print figures and assert nothing;
 * one that crashes is reported at the end and makes the exit code 1.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { machineLine, stringArg } from './lib/stats';

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const preferredOrder = ['http', 'list', 'labels', 'batchSplit', 'soak'];
/** A benchmark still running after this is ended, so `npm run bench` always stops by itself. */
const LIMIT_MS = 5 * 60_000;

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
  const child = spawn(process.execPath, ['--expose-gc', '--import', import.meta.resolve('tsx'), file], { stdio: 'inherit' });
  const timer = setTimeout(() => {
    console.error(`bench ${name}: still running after ${LIMIT_MS / 60_000} min, ending it`);
    child.kill('SIGTERM');
  }, LIMIT_MS);
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
