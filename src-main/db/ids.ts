import { randomFillSync } from 'node:crypto';

/** Type prefixes of decisions §1; ids are opaque outside this file. */
export const idPrefixes = {
  org: 'org',
  user: 'usr',
  token: 'tok',
  senderAddress: 'adr',
  carrier: 'car',
  shippingRule: 'rul',
  order: 'ord',
  orderChannel: 'chn',
  orderLine: 'oln',
  shipment: 'shp',
  parcel: 'prc',
  parcelOrderLine: 'pol',
  document: 'doc',
  webhook: 'whk',
  delivery: 'whd',
  emailMessage: 'eml',
  shopFulfillment: 'sff',
  event: 'evt',
  printer: 'prn',
  printJob: 'pjb',
  shipmentError: 'ser',
  activity: 'act',
  log: 'log',
  pickup: 'pck',
  dailyPickup: 'dpk',
  closeOut: 'clo',
} as const;
export type IdKind = keyof typeof idPrefixes;

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case
let lastTime = -1;
let lastRandom: Uint8Array = new Uint8Array(10);

/**
 * Random bytes drawn 2 560 at a time, each byte handed out once: asking the OS for 10 bytes per
 * millisecond was 2 % of a create under load (issue 23).
 */
const randomPool = new Uint8Array(2560);
let randomPoolUsed = randomPool.length;
function freshRandom(): Uint8Array {
  if (randomPoolUsed === randomPool.length) {
    randomFillSync(randomPool);
    randomPoolUsed = 0;
  }
  randomPoolUsed += 10;
  return randomPool.slice(randomPoolUsed - 10, randomPoolUsed);
}

/**
 * A ULID (48-bit time + 80-bit random, base32) that is monotonic within a millisecond, so ids made in
 * one transaction sort in creation order — the list order's tie-breaker depends on it.
 */
export function ulid(now = Date.now()): string {
  if (now <= lastTime) {
    // Same (or earlier) millisecond: increment the random part instead of drawing a new one.
    for (let i = lastRandom.length - 1; i >= 0; i--) {
      const byte = lastRandom[i] as number;
      if (byte < 255) {
        lastRandom[i] = byte + 1;
        break;
      }
      lastRandom[i] = 0;
    }
    now = lastTime;
  } else {
    lastTime = now;
    lastRandom = freshRandom();
  }
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let bits = 0;
  let value = 0;
  let random = '';
  for (const byte of lastRandom) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      random += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return time + random;
}

export function newId(kind: IdKind): string {
  return `${idPrefixes[kind]}_${ulid()}`;
}
