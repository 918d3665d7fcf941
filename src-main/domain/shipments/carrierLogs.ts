/**
 * A shipment's `logs[]` (decisions §4): every call made to its carrier — booking and voiding alike —
 * kept for support with its request and response, but never a password or API key.
 */
import type { CarrierCallLog, CarrierConfig } from '../../carriers/adapter';
import { secretKeysOf } from '../../carriers/catalogue';
import { newId } from '../../db/ids';
import { shipmentLogs } from '../../db/schema';
import type { WriteTx } from '../../db/tx';

/** The config keys that hold secrets, and their values wherever they might be echoed. */
export interface CarrierSecrets {
  keys: readonly string[];
  values: readonly string[];
}

export function carrierSecrets(carrierSlug: string, config: CarrierConfig): CarrierSecrets {
  const keys = secretKeysOf(carrierSlug);
  return { keys, values: keys.map((key) => config[key]).filter((value): value is string => typeof value === 'string' && value !== '') };
}

const MASK = '••••';

export function masked(secrets: CarrierSecrets, value: unknown): unknown {
  if (typeof value === 'string') return secrets.values.reduce((text, secret) => text.split(secret).join(MASK), value);
  if (Array.isArray(value)) return value.map((item) => masked(secrets, item));
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, secrets.keys.includes(key) ? MASK : masked(secrets, item)]));
  }
  return value;
}

export function writeCarrierCalls(tx: WriteTx, now: Date, shipmentId: string, secrets: CarrierSecrets, calls: readonly CarrierCallLog[]): void {
  for (const call of calls) {
    tx.insert(shipmentLogs)
      .values({
        id: newId('log'),
        shipmentId,
        direction: 'carrier',
        request: masked(secrets, call.request) ?? null,
        response: masked(secrets, call.response) ?? null,
        statusCode: call.statusCode,
        error: call.error === null ? null : (masked(secrets, call.error) as string),
        duration: Math.round(call.durationMs),
        createdAt: now.toISOString(),
      })
      .run();
  }
}
