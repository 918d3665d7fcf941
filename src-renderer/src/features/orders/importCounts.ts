/** "1 order", "2 orders". */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** What an import or a sync brought in, in one line: "2 orders imported, 1 already there (skipped)". */
export function importedSummary({ created, skipped }: { created: number; skipped: number }): string {
  return `${countOf(created, 'order')} imported, ${skipped} already there (skipped)`;
}

/**
 * What a sync did to orders already here, or null when nothing: "1 order updated from the shop,
 * 2 changes from the shop wait on their orders" (docs/api.md 13.15).
 */
export function shopChangesSummary({ updated, held }: { updated: number; held: number }): string | null {
  const parts: string[] = [];
  if (updated > 0) parts.push(`${countOf(updated, 'order')} updated from the shop`);
  if (held > 0)
    parts.push(`${countOf(held, 'change')} from the shop ${held === 1 ? 'waits on its order' : 'wait on their orders'} (open the order to apply or dismiss)`);
  return parts.length ? parts.join(', ') : null;
}

/** "12.3 KB" for a chosen file; a packer only needs to recognise the file, not count its bytes. */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
