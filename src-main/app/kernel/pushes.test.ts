import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from './context';
import { createAppContext } from '../runtime/createApp';
import { MAX_PENDING, PushBus, mayReceive, type PushBatch } from './pushes';
import { durable, inWriteTransaction } from '../../db/tx';
import { createOrgWithOwner } from '../../domain/orgs/orgs';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('the push bus', () => {
  it('delivers on a later turn, only the subscribed organization, coalesced per shipment', async () => {
    const bus = new PushBus();
    const got: PushBatch[] = [];
    bus.subscribe('org_a', (batch) => got.push(batch));
    bus.publish([
      { event: 'shipment.statusChanged', payload: { orgId: 'org_a', shipmentId: 'shp_1', status: 'processing', previousStatus: 'pending' } },
      { event: 'shipment.statusChanged', payload: { orgId: 'org_b', shipmentId: 'shp_2', status: 'processing', previousStatus: 'pending' } },
      { event: 'print.progress', payload: { orgId: 'org_a', printJobId: 'pjb_1', state: 'queued' } },
    ]);
    bus.publish([{ event: 'shipment.statusChanged', payload: { orgId: 'org_a', shipmentId: 'shp_1', status: 'dispatched', previousStatus: 'processing' } }]);
    // Publishing never runs a listener on the committing turn.
    expect(got).toEqual([]);
    await nextTurn();
    expect(got).toHaveLength(1);
    expect(got[0]?.missed).toBe(false);
    expect(got[0]?.pushes.map((push) => push.payload)).toEqual([
      { orgId: 'org_a', printJobId: 'pjb_1', state: 'queued' },
      { orgId: 'org_a', shipmentId: 'shp_1', status: 'dispatched', previousStatus: 'pending' },
    ]);
  });

  it('drops a queue past its bound and says events were missed', async () => {
    const bus = new PushBus();
    const got: PushBatch[] = [];
    bus.subscribe(null, (batch) => got.push(batch));
    const many = Array.from({ length: MAX_PENDING + 5 }, (_, i) => ({
      event: 'print.progress' as const,
      payload: { orgId: 'org_a', printJobId: `pjb_${i}`, state: 'done' as const },
    }));
    bus.publish(many);
    await nextTurn();
    expect(got).toHaveLength(1);
    expect(got[0]?.missed).toBe(true);
    expect(got[0]?.pushes.length).toBeLessThanOrEqual(MAX_PENDING);
  });

  it('replays events after a Last-Event-ID of this run, and refuses what it no longer keeps', () => {
    const bus = new PushBus();
    const push = (shipmentId: string, orgId = 'org_a') =>
      bus.publish([{ event: 'shipment.statusChanged', payload: { orgId, shipmentId, status: 'pending', previousStatus: null } }]);
    push('shp_1');
    push('shp_2', 'org_b');
    push('shp_3');
    expect(bus.since(bus.runId, 1, 'org_a')?.map((p) => p.id)).toEqual([3]);
    expect(bus.since(bus.runId, 3, 'org_a')).toEqual([]);
    expect(bus.since('another-run', 1, 'org_a')).toBeNull();
    expect(bus.since(bus.runId, 99, 'org_a')).toBeNull();
    bus.publish([], true);
    expect(bus.since(bus.runId, 1, 'org_a')).toBeNull();
  });

  it('filters by the scope each event needs', () => {
    expect(mayReceive(['read:shipments'], 'shipment.statusChanged')).toBe(true);
    expect(mayReceive(['read:shipments'], 'print.progress')).toBe(false);
    expect(mayReceive(['write:printers'], 'print.progress')).toBe(true);
    expect(mayReceive(['read:all'], 'print.progress')).toBe(true);
  });
});

describe('pushes from committed writes', () => {
  let dir: string;
  let app: AppContext;
  let orgId: string;
  let got: PushBatch[];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'shipdesk-pushes-'));
    app = createAppContext({ dataDir: dir });
    ({ orgId } = await createOrgWithOwner(app, { orgName: 'Pushes', email: 'pushes@example.com', password: 'correct horse battery staple' }));
    await durable(app.db);
    await nextTurn();
    got = [];
    app.pushes.subscribe(null, (batch) => got.push(batch));
  });

  afterEach(() => {
    app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const shipmentIdOf = () => app.db.$client.prepare('SELECT id FROM shipments LIMIT 1').pluck().get() as string | undefined;

  /** A minimal shipment row written straight to the table, as any write path would. */
  function insertShipment(tx: { run: (sql: string) => void }, id: string, status: string) {
    tx.run(
      `INSERT INTO shipments (id, org_id, reference, sender_address_id, type, carrier_id, product_id, services, additional_parameters, status, created_at, updated_at)
       SELECT '${id}', '${orgId}', '${id}', 'adr_x', 'outbound', 'car_x', 'p', '[]', '{}', '${status}', 'now', 'now'`,
    );
  }

  it('tells a status change only after its group committed, and never one rolled back', async () => {
    const client = app.db.$client;
    client.pragma('foreign_keys = OFF');
    const exec = { run: (sql: string) => client.exec(sql) };
    inWriteTransaction(app.db, () => insertShipment(exec, 'shp_kept', 'pending'));
    expect(() =>
      inWriteTransaction(app.db, () => {
        insertShipment(exec, 'shp_undone', 'pending');
        throw new Error('refused');
      }),
    ).toThrow('refused');
    inWriteTransaction(app.db, () => client.exec("UPDATE shipments SET status = 'on_hold' WHERE id = 'shp_kept'"));
    // Not yet committed: nothing is told.
    expect(got).toEqual([]);
    await durable(app.db);
    await nextTurn();
    expect(shipmentIdOf()).toBe('shp_kept');
    const pushes = got.flatMap((batch) => batch.pushes.map((push) => push.payload));
    expect(pushes).toEqual([{ orgId, shipmentId: 'shp_kept', status: 'on_hold', previousStatus: null }]);
  });

  it('tells nothing when the commit itself fails', async () => {
    const client = app.db.$client;
    client.pragma('foreign_keys = OFF');
    inWriteTransaction(app.db, () => insertShipment({ run: (sql) => client.exec(sql) }, 'shp_lost', 'pending'));
    // SQLite undoes the transaction under the group (as on a full disk); the commit then fails.
    client.exec('ROLLBACK');
    await expect(durable(app.db)).rejects.toThrow();
    await nextTurn();
    expect(got).toEqual([]);
  });
});
