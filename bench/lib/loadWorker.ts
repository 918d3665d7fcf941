/**
 * The load generator's own process (forked by load.ts), so the requests it makes never share a CPU
 * queue with the server it measures. It gets one LoadSpec over IPC, runs a warm-up and then the
 * measured run with autocannon (keep-alive connections, one request in flight per connection), and
 * answers with one LoadResult.
 */
import autocannon from 'autocannon';
import type { LoadResult, LoadSpec } from './load';

function run(spec: LoadSpec, seconds: number): Promise<autocannon.Result> {
  let next = 0;
  return autocannon({
    url: spec.baseUrl,
    connections: spec.connections,
    pipelining: 1,
    duration: seconds,
    method: spec.method,
    headers: spec.headers,
    ...(spec.body !== undefined ? { body: spec.body } : {}),
    // Each request takes the next path in turn, so a GET run reads many shipments, not one.
    requests: [
      {
        setupRequest: (request) => {
          request.path = spec.paths[next++ % spec.paths.length];
          return request;
        },
      },
    ],
  });
}

async function measure(spec: LoadSpec): Promise<void> {
  if (spec.warmUpSeconds > 0) await run(spec, spec.warmUpSeconds);
  // Tells the parent the measured run starts, so it can note its own CPU use over just that run.
  process.send?.({ measuring: true });
  const result = await run(spec, spec.durationSeconds);
  const answer: Omit<LoadResult, 'serverCpuShare'> = {
    ok: result['2xx'],
    failed: result.non2xx + result.errors,
    statusCounts: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, stat]) => [status, stat.count ?? 0])),
    seconds: result.duration,
    requestsPerSecond: result['2xx'] / result.duration,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99 },
  };
  process.send?.(answer, () => process.exit(0));
}

process.once('message', (spec: LoadSpec) => void measure(spec));
