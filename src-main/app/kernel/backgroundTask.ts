/** Work a running app repeats on its own: webhook deliveries, daily backups. */
export interface BackgroundTask {
  /** Stops the timer and waits for a run in progress, before the database closes. */
  stop(): Promise<void>;
}

/**
 * Runs `work` now and then every `intervalMs`. Runs never overlap; a failed run is logged (as
 * "`name` failed") and the next one tries again; the timer keeps no process alive.
 */
export function repeatInBackground(name: string, intervalMs: number, work: () => Promise<unknown>): BackgroundTask {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = work()
      .catch((error: unknown) => console.error(`${name} failed:`, error instanceof Error ? error.message : error))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
