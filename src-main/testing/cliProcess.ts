import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The CLI as a script runs it: a real process on a real data folder; JSON out, error bodies on
 * stderr. It is the shipped bundle (out/main/cli.js, which `npm test` builds before it tests), run
 * from the data folder as an installed app's would be, not from the checkout; from source through
 * tsx where nothing is built yet (`npm run test:unit` on a fresh checkout).
 */
const CLI_BUNDLE = resolve('out/main/cli.js');
const [command, ...entry] = existsSync(CLI_BUNDLE) ? [process.execPath, CLI_BUNDLE] : [resolve('node_modules/.bin/tsx'), resolve('src-main/cli.ts')];

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCliProcess(dataDir: string, args: readonly string[]): Promise<CliRun> {
  return new Promise((done) => {
    execFile(command as string, [...entry, ...args], { env: { ...process.env, SHIPDESK_DATA_DIR: dataDir }, cwd: dataDir }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The error body the CLI printed last on stderr (Node's own warnings may come before it). */
export function cliErrorBody(run: CliRun): { code: string; message: string; details?: { path: string; message: string }[] } {
  return JSON.parse(run.stderr.trim().split('\n').at(-1) ?? '') as ReturnType<typeof cliErrorBody>;
}
