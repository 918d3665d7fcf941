/**
 * The warehouse's own day and clock: this computer's local time zone, where the app runs beside the
 * dock (an organization has no time zone of its own). A pickup's date and window are in it.
 */
const two = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DD of `now` here. */
export function localDay(now: Date): string {
  return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
}

/** HH:MM of `now` here. */
export function localClock(now: Date): string {
  return `${two(now.getHours())}:${two(now.getMinutes())}`;
}

/** ISO weekday of `now` here: 1 = Monday … 7 = Sunday. */
export function localWeekday(now: Date): number {
  return now.getDay() === 0 ? 7 : now.getDay();
}
