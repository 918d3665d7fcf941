/**
 * What every call to a carrier starts from: the adapter's context with its one HTTP client (time
 * limits, retries, call slots, logs; carriers/platform/carrierHttp.ts) and the secrets to mask in
 * whatever of the call is kept.
 */
import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../../app/kernel/context';
import type { CarrierAdapter, CarrierCallContext, CarrierConfig } from '../../carriers/adapter';
import { createCarrierHttp } from '../../carriers/platform/carrierHttp';
import { callsAtATimeOf } from '../../carriers/platform/remoteFields';
import { orgs } from '../../db/schema';
import { inWriteTransaction } from '../../db/tx';
import type { carriers } from '../../db/schema';
import { carrierSecrets, type CarrierSecrets } from '../shipments/carrierLogs';
import { adapterConfigOf, adapterOfRow } from './carrierRows';

type CarrierRow = typeof carriers.$inferSelect;

export interface CarrierCall {
  adapter: CarrierAdapter;
  context: CarrierCallContext;
  secrets: CarrierSecrets;
}

/**
 * A call for a saved carrier: its call slots are shared by every send, poll and lookup of it.
 * `config` is the row's config already opened, when the caller has it (a booking opened it to check the shipment).
 */
export function carrierCall(app: AppContext, row: CarrierRow, config: CarrierConfig = adapterConfigOf(app, row)): CarrierCall {
  return callWith(app, row.orgId, row.id, adapterOfRow(row), config);
}

/** A call for a config not saved yet (the carrier form's test and option lists). */
export function unsavedCarrierCall(app: AppContext, orgId: string, adapter: CarrierAdapter, config: CarrierConfig): CarrierCall {
  return callWith(app, orgId, null, adapter, config);
}

function callWith(app: AppContext, orgId: string, carrierId: string | null, adapter: CarrierAdapter, config: CarrierConfig): CarrierCall {
  const http = createCarrierHttp({ ...app.carrierHttp, slotKey: carrierId ?? `unsaved:${orgId}`, callsAtATime: callsAtATimeOf(config) });
  return {
    adapter,
    secrets: carrierSecrets(adapter.slug, config),
    context: { orgId, carrierId, config, now: app.now(), http, nextTrackingSequence: () => nextTrackingSequence(app, orgId) },
  };
}

/** The organization's next tracking number, in its own small write so a booking holds no transaction. */
function nextTrackingSequence(app: AppContext, orgId: string): number {
  const row = inWriteTransaction(app.db, (tx) =>
    tx
      .update(orgs)
      .set({ trackingSeq: sql`${orgs.trackingSeq} + 1` })
      .where(eq(orgs.id, orgId))
      .returning({ seq: orgs.trackingSeq })
      .get(),
  );
  if (!row) throw new Error(`Organization ${orgId} disappeared while booking`);
  return row.seq;
}
