/** Small figures helpers shared by the benchmarks. They print; they never assert. */
import { availableParallelism, cpus, loadavg } from 'node:os';

/** Nearest-rank percentile (p in 0..100) of unsorted samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

export const median = (samples: readonly number[]) => percentile(samples, 50);

export function ms(value: number): string {
  return `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
}

/** `name=value` from argv (e.g. `connections=20`), else the fallback. */
export function numberArg(name: string, fallback: number): number {
  const raw = process.argv.slice(2).find((arg) => arg.startsWith(`${name}=`));
  if (!raw) return fallback;
  const value = Number(raw.slice(name.length + 1));
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number (got "${raw}")`);
  return value;
}

export function stringArg(name: string): string | undefined {
  return process.argv
    .slice(2)
    .find((arg) => arg.startsWith(`${name}=`))
    ?.slice(name.length + 1);
}

/** What the figures were measured on, with the load average: other work on the machine skews them. */
export function machineLine(): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `node ${process.version}, ${process.platform}/${process.arch}, ${availableParallelism()} cores (${cpu}), load average ${loadavg()[0]?.toFixed(2)}`;
}
