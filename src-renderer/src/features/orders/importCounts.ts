/** "1 order", "2 orders". */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** What an import or a sync brought in, in one line: "2 orders imported, 1 already there (skipped)". */
export function importedSummary({ created, skipped }: { created: number; skipped: number }): string {
  return `${countOf(created, 'order')} imported, ${skipped} already there (skipped)`;
}

/** "12.3 KB" for a chosen file; a packer only needs to recognise the file, not count its bytes. */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
