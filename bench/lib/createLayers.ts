/**
 * What each layer of create-shipment costs, in this process and without HTTP: CPU per create of
 * (1) the floor's raw statements (rawCreate.ts), (2) the domain's create called with an input
 * already validated (reads, the rows through the app's writers, plan usage, the answer's JSON, the
 * event), (3) the dispatcher's call (authentication, organization access, scope, the zod validation
 * of every part, then (2)). Each is group-committed as a door's writes are: 5 at a time (what a
 * group held under the HTTP runs' 10 connections, counted on 2026-11-28: 5.0–5.2), then the group's
 * commit is awaited. The differences are the layers' costs; HTTP's is the HTTP run's CPU per request
 * less (3).
 */
import type Database from 'better-sqlite3';
import { whenDurable } from '../../src-main/db/groupCommit';
import { median } from './stats';

export interface LayerTiming {
  /** Median CPU milliseconds per create over `runs` runs. */
  cpuMs: number;
  /** The runs' lowest and highest. */
  rangeMs: [number, number];
}

/** CPU per create of `create`, called `batch` at a time in one write group. */
export async function cpuPerCreate(
  client: Database.Database,
  create: () => Promise<unknown> | unknown,
  { batch = 5, batches = 400, warmUpBatches = 200, runs = 5 } = {},
): Promise<LayerTiming> {
  const group = async () => {
    await Promise.all(Array.from({ length: batch }, () => create()));
    await whenDurable(client);
  };
  for (let i = 0; i < warmUpBatches; i++) await group();
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = process.cpuUsage();
    for (let i = 0; i < batches; i++) await group();
    const used = process.cpuUsage(started);
    samples.push((used.user + used.system) / 1000 / (batches * batch));
  }
  return { cpuMs: median(samples), rangeMs: [Math.min(...samples), Math.max(...samples)] };
}
