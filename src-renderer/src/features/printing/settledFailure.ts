import type { PrintJob } from '../../../../src-shared/schemas/printing';

/**
 * The later print that settled a failed job: the same document done since (on another printer,
 * say). Such a job is no longer a problem, and retrying it would print a second label (USERS 4);
 * the server refuses that retry too.
 */
export function settledFailure(jobs: readonly PrintJob[], job: PrintJob): PrintJob | undefined {
  if (job.status !== 'failed') return undefined;
  return jobs.find((other) => other.id !== job.id && other.documentId === job.documentId && other.status === 'done' && other.updatedAt > job.updatedAt);
}
