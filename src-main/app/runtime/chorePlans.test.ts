import { afterEach, beforeEach, expect, it } from 'vitest';
import { runStartupChores } from './startup';
import { pruneDeliveredEvents, pruneOldDeliveries } from '../../domain/outboxRetention';
import { createOrgWithOwner } from '../../domain/orgs/orgs';
import { fullScans, recordingApp, type RecordingApp } from '../../testing/queryPlans';

/**
 * The chores that look across every organization — start-up recovery, the daily clean-up of the
 * outbox and of webhook deliveries — must find their rows through indexes: the tables they look in
 * grow with every shipment (230 ms for recovery on a million shipments, 370 ms for the outbox
 * clean-up on 20 days of events, seconds from a cold disk). The plans are SQLite's own, for the
 * statements the chores really ran.
 */
let recording: RecordingApp;
beforeEach(() => {
  recording = recordingApp();
});
afterEach(() => recording.close());

const GROWING = ['shipments', 'print_jobs', 'outbox_events', 'webhook_deliveries'];

it('start-up recovery finds interrupted bookings and print jobs without reading those tables whole', () => {
  runStartupChores(recording.app);
  const lookups = recording.takeLookups();
  expect(lookups.length).toBeGreaterThanOrEqual(2);
  for (const sql of lookups) expect(fullScans(recording.app, sql, GROWING), sql).toEqual([]);
});

it('the daily clean-up finds expired events and deliveries without reading those tables whole', async () => {
  const { app } = recording;
  const { orgId } = await createOrgWithOwner(app, { orgName: 'Chores', email: 'chores@example.com', password: 'long enough password' });
  // pruneOldDeliveries works webhook by webhook: one has to exist for its statement to run.
  const at = new Date().toISOString();
  app.db.$client
    .prepare(
      "INSERT INTO webhooks (id, org_id, name, url, events, secret_sealed, is_active, created_at, updated_at) VALUES ('whk_a', ?, 'ERP', 'https://erp.example', '[]', 'x', 1, ?, ?)",
    )
    .run(orgId, at, at);
  recording.takeLookups();
  await pruneDeliveredEvents(app);
  await pruneOldDeliveries(app);
  const lookups = recording.takeLookups();
  expect(lookups.some((sql) => sql.includes('outbox_events'))).toBe(true);
  expect(lookups.some((sql) => sql.includes('webhook_deliveries'))).toBe(true);
  for (const sql of lookups) expect(fullScans(app, sql, GROWING), sql).toEqual([]);
});
