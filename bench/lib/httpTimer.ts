/**
 * One request at a time over one keep-alive connection, timed from send to the last byte of the
 * answer: the latency a person paging through a list sees, without queueing behind other requests.
 */
import { Agent, request } from 'node:http';

export interface TimedAnswer {
  status: number;
  body: string;
  ms: number;
}

export function sequentialClient(baseUrl: string, headers: Record<string, string>) {
  const url = new URL(baseUrl);
  if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') throw new Error(`Benchmarks load loopback only, not ${url.hostname}`);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });

  function get(path: string): Promise<TimedAnswer> {
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const outgoing = request({ host: url.hostname, port: url.port, path, method: 'GET', headers, agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }));
        response.on('error', reject);
      });
      outgoing.setTimeout(30_000, () => outgoing.destroy(new Error(`GET ${path} took over 30 s`)));
      outgoing.on('error', reject);
      outgoing.end();
    });
  }

  /** `count` timed GETs of `path` after `warmUp` untimed ones; throws on a non-200. */
  async function sample(path: string, count: number, warmUp = 10): Promise<{ samples: number[]; last: TimedAnswer }> {
    let last: TimedAnswer | undefined;
    const samples: number[] = [];
    for (let i = 0; i < warmUp + count; i++) {
      last = await get(path);
      if (last.status !== 200) throw new Error(`GET ${path} answered ${last.status}: ${last.body.slice(0, 300)}`);
      if (i >= warmUp) samples.push(last.ms);
    }
    return { samples, last: last as TimedAnswer };
  }

  return { get, sample, close: () => agent.destroy() };
}
