import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from './open';
import type { Db } from './types';
import { durable, inWriteTransaction } from './tx';
import { databaseFile } from '../app/runtime/config';
import { execute } from '../app/dispatcher/execute';
import { setupLocalCarrier, shipmentBody, startTestServer, type TestServer } from '../testing/harness';

describe('group commit', () => {
  let dir: string;
  let db: Db;
  /** A second connection to the same file: it sees only what is committed. */
  let other: Database.Database;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shipdesk-group-'));
    const file = join(dir, 'shipdesk.db');
    db = openDatabase(file);
    db.$client.exec('CREATE TABLE scratch (x INTEGER NOT NULL)');
    other = new Database(file, { readonly: true });
  });
  afterEach(() => {
    other.close();
    db.$client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const insert = (x: number) => db.$client.prepare('INSERT INTO scratch (x) VALUES (?)').run(x);
  const committed = () => other.prepare('SELECT x FROM scratch ORDER BY x').pluck().all();

  it('commits the writes of one turn together, after the turn, and a failed one undoes only itself', async () => {
    inWriteTransaction(db, () => insert(1));
    expect(() =>
      inWriteTransaction(db, () => {
        insert(2);
        throw new Error('refused half-way');
      }),
    ).toThrow('refused half-way');
    inWriteTransaction(db, () => insert(3));

    // The writer sees its own writes at once; nobody else does until the group is on disk.
    expect(db.$client.prepare('SELECT x FROM scratch ORDER BY x').pluck().all()).toEqual([1, 3]);
    expect(committed()).toEqual([]);
    await durable(db);
    expect(committed()).toEqual([1, 3]);
    expect(db.$client.inTransaction).toBe(false);
  });

  it('tells every waiter when the group could not be committed, and the next write starts afresh', async () => {
    inWriteTransaction(db, () => insert(1));
    // What SQLite does by itself on a full disk or an I/O error: the whole transaction is gone.
    db.$client.exec('ROLLBACK');
    await expect(durable(db)).rejects.toThrow(/rolled back/);
    expect(committed()).toEqual([]);

    inWriteTransaction(db, () => insert(2));
    await durable(db);
    expect(committed()).toEqual([2]);
  });

  it('does not wait when nothing is pending', async () => {
    let waited = false;
    const done = durable(db).then(() => (waited = true));
    await Promise.resolve();
    await Promise.resolve();
    expect(waited).toBe(true);
    await done;
  });
});

describe('group commit through the HTTP door', () => {
  let t: TestServer;
  beforeEach(async () => {
    t = await startTestServer();
  });
  afterEach(async () => {
    await t.close();
  });

  it('answers concurrent creates only once they are on disk, and one refused create does not undo the others', async () => {
    const { carrierId } = await setupLocalCarrier(t);
    const other = new Database(databaseFile(t.dir), { readonly: true });
    try {
      const onDisk = other.prepare('SELECT count(*) FROM shipments WHERE id = ?').pluck();
      const path = `/orgs/${t.org.orgId}/shipments`;
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t
            .request('POST', path, { body: shipmentBody(i === 7 ? 'car_missing' : carrierId) })
            // Read from another connection the moment the answer arrives: a 201 is already committed.
            .then((response) => ({
              status: response.status,
              id: response.body.id as string | undefined,
              seen: response.body.id ? onDisk.get(response.body.id) : 0,
            })),
        ),
      );
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(19);
      expect(answers[7]?.status).toBe(404);
      for (const answer of answers.filter((a) => a.status === 201)) expect(answer.seen).toBe(1);

      // The dispatcher itself: its promise settles only after the commit (a door answers right then).
      const created = await execute(
        t.app,
        'shipments.create',
        { params: { orgId: t.org.orgId }, body: shipmentBody(carrierId) },
        { authorization: `Bearer ${t.org.token}`, client: 'test' },
      );
      // The create answers with the full read as JSON text, as a get does.
      expect(onDisk.get(JSON.parse(JSON.stringify(created.body)).id)).toBe(1);
      expect(other.prepare('SELECT count(*) FROM shipments WHERE org_id = ?').pluck().get(t.org.orgId)).toBe(20);
    } finally {
      other.close();
    }
  });
});
