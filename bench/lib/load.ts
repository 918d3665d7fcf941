/**
 * Runs HTTP load from a separate process (loadWorker.ts): the server under test keeps its process
 * to itself, as it would in production, while the two share the machine's cores.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface LoadSpec {
  /** e.g. http://127.0.0.1:41234; only loopback is ever loaded. */
  baseUrl: string;
  method: 'GET' | 'POST';
  /** Requests cycle through these paths (one path is fine). */
  paths: string[];
  headers: Record<string, string>;
  body?: string;
  connections: number;
  warmUpSeconds: number;
  durationSeconds: number;
}

export interface LoadResult {
  /** 2xx answers in the measured run. */
  ok: number;
  /** Non-2xx answers plus connection errors. */
  failed: number;
  statusCounts: Record<string, number>;
  seconds: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number };
  /**
   * CPU time of the process that called runLoad (the server's, when it runs in-process) over the
   * measured run, as a share of one core: near 1 means the server was the bottleneck, well below
   * means the load generator (or the machine) was.
   */
  serverCpuShare: number;
}

type WorkerMessage = { measuring: true } | Omit<LoadResult, 'serverCpuShare'>;

const workerFile = fileURLToPath(new URL('./loadWorker.ts', import.meta.url));

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const host = new URL(spec.baseUrl).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]') throw new Error(`Benchmarks load loopback only, not ${host}`);
  // The same Node and the same TypeScript loader as this process.
  const worker = fork(workerFile, { execArgv: ['--import', import.meta.resolve('tsx')], stdio: 'inherit' });
  const limitMs = (spec.warmUpSeconds + spec.durationSeconds + 30) * 1000;
  return new Promise<LoadResult>((resolve, reject) => {
    // A hung worker is ended so a bench run always stops by itself.
    const timer = setTimeout(() => {
      worker.kill('SIGKILL');
      reject(new Error(`load worker did not finish within ${limitMs / 1000} s`));
    }, limitMs);
    let answered = false;
    let cpuAtStart = process.cpuUsage();
    let wallAtStart = performance.now();
    worker.on('message', (message: WorkerMessage) => {
      if ('measuring' in message) {
        cpuAtStart = process.cpuUsage();
        wallAtStart = performance.now();
        return;
      }
      const cpu = process.cpuUsage(cpuAtStart);
      const serverCpuShare = (cpu.user + cpu.system) / 1000 / (performance.now() - wallAtStart);
      answered = true;
      clearTimeout(timer);
      resolve({ ...message, serverCpuShare });
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      if (!answered) reject(new Error(`load worker exited with code ${code} before answering`));
    });
    worker.send(spec);
  });
}
