/**
 * Days picked in a date field (YYYY-MM-DD, this computer's calendar) as the instants a list's
 * `createdFrom`/`createdTo` take, both inclusive: a day here is not the UTC day the API would read
 * from a bare date.
 */
export function dayBounds(from: string, to: string): { createdFrom?: string; createdTo?: string } {
  return {
    ...(from ? { createdFrom: new Date(`${from}T00:00:00`).toISOString() } : {}),
    ...(to ? { createdTo: new Date(`${to}T23:59:59.999`).toISOString() } : {}),
  };
}
