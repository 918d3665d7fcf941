import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** Everything it has written to stdout and stderr so far. */
  output(): string;
}

/** What `npm run serve` runs after its build. */
export const SERVE_BUNDLE = 'out/main/serve.js';

/**
 * The headless server in a process of its own, as `npm run serve` runs it: the built bundle
 * (`npm test` builds before it tests), or `src-main/serve.ts` through tsx where nothing is built yet
 * (`npm run test:unit` on a fresh checkout). Resolves once it says where it listens, and rejects
 * with its output when it exits first or takes over 30 s.
 */
export async function spawnServe(args: readonly string[], env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const entry = existsSync(SERVE_BUNDLE) ? [SERVE_BUNDLE] : ['--import', 'tsx', 'src-main/serve.ts'];
  const child = spawn(process.execPath, [...entry, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry.at(-1)} did not start in time:\n${output}`));
    }, 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Shipdesk listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry.at(-1)} exited with ${code}:\n${output}`));
    });
  });
  return { url, child, output: () => output };
}
