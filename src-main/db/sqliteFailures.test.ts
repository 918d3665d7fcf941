import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { toApiError } from '../app/dispatcher/errors';
import { setupLocalCarrier, shipmentBody, startTestServer, type TestServer } from '../testing/harness';

let t: TestServer;
let carrierId: string;
beforeAll(async () => {
  t = await startTestServer();
  ({ carrierId } = await setupLocalCarrier(t));
});
afterAll(() => t.close());

it('a database held by another program is 503 SERVICE_UNAVAILABLE saying so, and nothing is saved', async () => {
  const other = new Database(t.app.db.$client.name);
  other.exec('BEGIN IMMEDIATE'); // a backup or a command-line import holding the write lock
  const before = (t.app.db.$client.prepare('SELECT count(*) AS n FROM shipments').get() as { n: number }).n;
  try {
    const refused = await t.request('POST', `/orgs/${t.org.orgId}/shipments`, { body: shipmentBody(carrierId) });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      error: 'Service Unavailable',
      message: 'The database is busy with another program (a backup or an import from the command line), so nothing was saved; try again in a moment',
    });
  } finally {
    other.exec('ROLLBACK');
    other.close();
  }
  expect((t.app.db.$client.prepare('SELECT count(*) AS n FROM shipments').get() as { n: number }).n).toBe(before);
  expect((await t.request('POST', `/orgs/${t.org.orgId}/shipments`, { body: shipmentBody(carrierId) })).status).toBe(201);
}, 20_000);

it('a full disk, a failing disk, a read-only folder and a damaged file each say what happened', () => {
  const cases: [string, string, RegExp][] = [
    ['SQLITE_FULL', 'INTERNAL_ERROR', /disk that holds Shipdesk's data is full/],
    ['SQLITE_IOERR_WRITE', 'INTERNAL_ERROR', /could not read or write/],
    ['SQLITE_READONLY_DBMOVED', 'INTERNAL_ERROR', /read-only/],
    ['SQLITE_CORRUPT', 'INTERNAL_ERROR', /restore the newest backup/],
    ['SQLITE_BUSY_SNAPSHOT', 'SERVICE_UNAVAILABLE', /busy with another program/],
  ];
  for (const [code, apiCode, message] of cases) {
    const error = toApiError(new Database.SqliteError('disk trouble', code));
    expect([error.code, error.message], code).toEqual([apiCode, expect.stringMatching(message)]);
  }
  // Anything else of SQLite's is still the plain 500: its detail is for the log, not the answer.
  expect(toApiError(new Database.SqliteError('UNIQUE constraint failed: orgs.slug', 'SQLITE_CONSTRAINT_UNIQUE')).message).toBe(
    'Something went wrong inside Shipdesk; the error has been logged',
  );
});
