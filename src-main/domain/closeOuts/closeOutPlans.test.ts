import { afterEach, beforeEach, expect, it } from 'vitest';
import { ApiError } from '../../../src-shared/errors';
import type { SenderAddressInput } from '../../../src-shared/schemas/senderAddress';
import { senderAddressBody } from '../../testing/harness';
import { fullScans, queryPlan, recordingApp, type RecordingApp } from '../../testing/queryPlans';
import { createCarrier } from '../carriers/carriers';
import { createOrgWithOwner } from '../orgs/orgs';
import { createSenderAddress } from '../senderAddresses/senderAddresses';
import { createCloseOut, listCloseOuts, waitingForCloseOut } from './closeOuts';

/**
 * What waits for a close-out is found on the index of (org, carrier, status, booked), and the waiting
 * counts without reading every shipment ever sent: the shipments table grows with every parcel. The
 * plans are SQLite's own, for the statements really run.
 */
let recording: RecordingApp;
beforeEach(() => {
  recording = recordingApp();
});
afterEach(() => recording.close());

const GROWING = ['shipments', 'parcels', 'close_out_shipments', 'close_outs'];

it('finds the shipments to close, the waiting counts and the close-outs without reading those tables whole', async () => {
  const { app } = recording;
  const { orgId } = await createOrgWithOwner(app, { orgName: 'Plans', email: 'plans@example.com', password: 'long enough password' });
  const address = createSenderAddress(app, orgId, senderAddressBody() as SenderAddressInput);
  const carrier = await createCarrier(app, orgId, { name: 'Own trucks', carrierSlug: 'local', config: {}, senderAddressId: address.id });
  recording.takeLookups();
  await expect(createCloseOut(app, orgId, { carrierId: carrier.id })).rejects.toBeInstanceOf(ApiError);
  waitingForCloseOut(app, orgId);
  listCloseOuts(app, orgId, { page: 1, limit: 20, carrierId: carrier.id });
  const lookups = recording.takeLookups().filter((sql) => GROWING.some((table) => sql.includes(`"${table}"`)));
  expect(lookups.some((sql) => sql.includes('"shipments"'))).toBe(true);
  expect(lookups.some((sql) => sql.includes('"close_outs"'))).toBe(true);
  for (const sql of lookups) expect(fullScans(app, sql, GROWING), sql).toEqual([]);
  // Both the close-out and the waiting counts take a carrier's range of the index made for them.
  const shipmentLookups = lookups.filter((sql) => /from "shipments"/.test(sql));
  expect(shipmentLookups).toHaveLength(2);
  for (const sql of shipmentLookups) expect(queryPlan(app, sql).join('\n'), sql).toContain('USING INDEX shipments_org_carrier_status_booked');
});
