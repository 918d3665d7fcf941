const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : '—';
}

const timeOnly = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const dayThisYear = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const dayOtherYear = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/**
 * A date for narrow table columns, as mail programs show them: the time today ("7:29 PM"), the day
 * this year ("Nov 22"), else the day with its year ("Nov 22, 2025"). Give formatDateTime in a tooltip.
 */
export function formatDateTimeCompact(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (date.toDateString() === now.toDateString()) return timeOnly.format(date);
  return (date.getFullYear() === now.getFullYear() ? dayThisYear : dayOtherYear).format(date);
}

export function formatWeight(weight: number, unit: string): string {
  return `${Number(weight.toFixed(3))} ${unit}`;
}

/** Status values as people say them: `partly_dispatched` → "Partly dispatched". */
export function humanize(value: string): string {
  const words = value.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
