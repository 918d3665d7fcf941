import { spawn, type ChildProcess } from 'node:child_process';

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** Everything it has written to stdout and stderr so far. */
  output(): string;
}

/**
 * `src-main/serve.ts` in a process of its own, as `npm run serve` runs it; resolves once it says
 * where it listens, and rejects with its output when it exits first or takes over 30 s.
 */
export async function spawnServe(args: readonly string[], env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-main/serve.ts', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve.ts did not start in time:\n${output}`));
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
      reject(new Error(`serve.ts exited with ${code}:\n${output}`));
    });
  });
  return { url, child, output: () => output };
}
