/**
 * Loaded with `--import` into the soak's server process (bench/soak.ts), which runs the built
 * headless server unchanged: answers the soak's `memory` message over the IPC channel with
 * process.memoryUsage() and the event loop's delay p99 since the last reading. With `gc: true` and
 * --expose-gc it collects first (for finding what the heap holds; the soak's figures are taken
 * without, as the server runs). The channel is unref'd, so it never keeps the server running; when
 * it closes (the soak ended or was stopped) the server is sent SIGTERM, so none is left behind.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
process.on('message', (message) => {
  if (!message || message.type !== 'memory') return;
  if (message.gc && globalThis.gc) globalThis.gc();
  const memory = process.memoryUsage();
  const loopDelayP99 = loopDelay.percentile(99) / 1e6;
  loopDelay.reset();
  process.send?.({ type: 'memory', ...memory, loopDelayP99 });
});
process.channel?.unref();
// The soak went away (ended, or stopped by bench/run.ts's limit): the server stops as on Ctrl-C.
process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
