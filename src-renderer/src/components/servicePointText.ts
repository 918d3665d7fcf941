import type { ServicePoint } from '../../../src-shared/schemas/carrier';

/**
 * How a service point reads in the picker (ServicePointPicker.tsx): its address on one line, the
 * distance from the receiver and its opening hours in a few words. Pure, so tested without a browser.
 */

export function pointAddress(point: Pick<ServicePoint, 'address1' | 'postalCode' | 'city'>): string {
  return [point.address1, `${point.postalCode} ${point.city}`.trim()].filter((part) => part.trim()).join(', ');
}

/** "350 m", "1.2 km", "14 km"; '' when the carrier gave no distance. */
export function formatDistance(meters: number | null): string {
  if (meters === null || !Number.isFinite(meters) || meters < 0) return '';
  if (meters < 1000) return `${Math.round(meters)} m`;
  const km = meters / 1000;
  return `${km < 10 ? km.toFixed(1) : Math.round(km)} km`;
}

const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const shortDay: Record<(typeof weekdays)[number], string> = {
  monday: 'Mon',
  tuesday: 'Tue',
  wednesday: 'Wed',
  thursday: 'Thu',
  friday: 'Fri',
  saturday: 'Sat',
  sunday: 'Sun',
};

/**
 * Opening hours in a few words: days in a row with the same hours share one entry ("Mon–Fri
 * 08:00–20:00, Sat 10:00–16:00"); a day with two openings lists both; closed days are left out.
 * '' when the carrier gave none.
 */
export function compactOpeningHours(hours: ServicePoint['openingHours']): string {
  const byDay = new Map<string, string[]>();
  for (const entry of hours) {
    const day = entry.day.toLowerCase();
    byDay.set(day, [...(byDay.get(day) ?? []), `${entry.open}–${entry.close}`]);
  }
  const runs: { first: string; last: string; times: string }[] = [];
  let previous: string | null = null;
  for (const day of weekdays) {
    const times = byDay.get(day)?.sort().join(', ');
    const run = runs[runs.length - 1];
    if (times && run && previous === day && run.times === times) run.last = day;
    else if (times) runs.push({ first: day, last: day, times });
    previous = times ? (weekdays[weekdays.indexOf(day) + 1] ?? null) : null;
  }
  return runs
    .map((run) => {
      const first = shortDay[run.first as keyof typeof shortDay];
      const last = shortDay[run.last as keyof typeof shortDay];
      return `${first === last ? first : `${first}–${last}`} ${run.times}`;
    })
    .join(', ');
}
