/**
 * At most N calls at a time per configured carrier (decisions §13: 4 by default), so a batch send of
 * a hundred stays within what carriers accept, and a carrier's 429 pauses only its own calls.
 */

interface Slots {
  active: number;
  waiting: (() => void)[];
  /** Epoch ms before which no call starts: set by a 429's Retry-After. */
  pausedUntil: number;
}

export const DEFAULT_CALLS_AT_A_TIME = 4;

const byCarrier = new Map<string, Slots>();

function slotsOf(key: string): Slots {
  let slots = byCarrier.get(key);
  if (!slots) {
    slots = { active: 0, waiting: [], pausedUntil: 0 };
    byCarrier.set(key, slots);
  }
  return slots;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `work` once one of the carrier's `limit` slots is free and no Retry-After pause is running. */
export async function inCallSlot<T>(key: string, limit: number, work: () => Promise<T>): Promise<T> {
  const slots = slotsOf(key);
  if (slots.active >= limit) await new Promise<void>((resolve) => slots.waiting.push(resolve));
  else slots.active++;
  try {
    for (let wait = slots.pausedUntil - Date.now(); wait > 0; wait = slots.pausedUntil - Date.now()) await sleep(wait);
    return await work();
  } finally {
    const next = slots.waiting.shift();
    // The slot passes straight to the next waiter, so a late arrival cannot jump the queue.
    if (next) next();
    else if (--slots.active === 0 && slots.pausedUntil <= Date.now()) byCarrier.delete(key);
  }
}

/** A 429 said to wait: every call to this carrier waits until then, not only the refused one. */
export function pauseCarrier(key: string, untilMs: number): void {
  const slots = slotsOf(key);
  slots.pausedUntil = Math.max(slots.pausedUntil, untilMs);
}

/** How many of the carrier's calls are running now (for tests and the benchmark). */
export function activeCalls(key: string): number {
  return byCarrier.get(key)?.active ?? 0;
}
