import type { PrintJob } from '../../../../src-shared/schemas/printing';

/**
 * The rows of a list read again, with the jobs the packer acted on here (`pinned`, e.g. retried) kept
 * where they were even when the new read no longer has them: a retried job that is now done leaves
 * "Failed" on the server, but it stays in sight, showing Done, until the packer refreshes or changes
 * the filter — a push reading the list again must not make it vanish under the pointer.
 */
export function keepInSight(shown: readonly PrintJob[], next: readonly PrintJob[], pinned: ReadonlyMap<string, PrintJob>): PrintJob[] {
  const rows = [...next];
  const present = new Set(next.map((job) => job.id));
  shown.forEach((job, index) => {
    const kept = pinned.get(job.id);
    if (!kept || present.has(job.id)) return;
    rows.splice(Math.min(index, rows.length), 0, kept);
    present.add(job.id);
  });
  return rows;
}
