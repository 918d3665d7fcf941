const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : '—';
}

export function formatWeight(weight: number, unit: string): string {
  return `${Number(weight.toFixed(3))} ${unit}`;
}

/** Status values as people say them: `partly_dispatched` → "Partly dispatched". */
export function humanize(value: string): string {
  const words = value.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
