import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AppContext } from '../kernel/context';
import { createAppContext } from '../runtime/createApp';
import { backupsFolder, backupTo, dailyBackups, startDailyBackups, takeDailyBackup } from './dailyBackups';
import { createOrgWithOwner } from '../../domain/orgs/orgs';

let dir: string;
let app: AppContext;
let clock: Date;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shipdesk-backups-'));
  clock = new Date('2026-11-01T23:30:00.000Z');
  app = createAppContext({ dataDir: dir, now: () => clock });
});
afterEach(() => {
  app.close();
  rmSync(dir, { recursive: true, force: true });
});

const nextDay = () => {
  clock = new Date(clock.getTime() + 24 * 60 * 60 * 1000);
};
const orgCount = (file: string) => {
  const copy = new Database(file, { readonly: true });
  try {
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    return copy.prepare('SELECT count(*) FROM orgs').pluck().get();
  } finally {
    copy.close();
  }
};

describe('daily backups (decisions §12)', () => {
  it('writes one whole backup a day, with what was written before it, even what still waited for its commit', async () => {
    await createOrgWithOwner(app, { orgName: 'Backed Up', email: 'b@example.com', password: 'long enough password' });
    const file = await takeDailyBackup(app);
    expect(file && basename(file)).toMatch(/^shipdesk(-[\w-]+)?-2026-11-01\.sqlite$/);
    // The same day again: nothing new.
    expect(await takeDailyBackup(app)).toBeNull();
    expect(readdirSync(backupsFolder(dir))).toEqual([basename(file as string)]);
    expect(orgCount(file as string)).toBe(1);
  });

  it('keeps the newest seven and never touches other files in the folder', async () => {
    mkdirSync(backupsFolder(dir), { recursive: true });
    const others = ['shipdesk-other-2020-01-01.sqlite', 'notes.txt', 'my-copy.sqlite'];
    for (const name of others) writeFileSync(join(backupsFolder(dir), name), 'not mine');
    const days: string[] = [];
    for (let day = 0; day < 10; day++) {
      await createOrgWithOwner(app, { orgName: `Org ${day}`, email: `o${day}@example.com`, password: 'long enough password' });
      days.push(clock.toISOString().slice(0, 10));
      await takeDailyBackup(app);
      nextDay();
    }
    const kept = dailyBackups(dir, app.db.$client.name);
    expect(kept).toHaveLength(7);
    expect(kept.map((file) => /(\d{4}-\d{2}-\d{2})\.sqlite$/.exec(file)?.[1])).toEqual(days.slice(3).reverse());
    // Each backup holds the database as it was that day.
    expect(orgCount(kept[0] as string)).toBe(10);
    expect(orgCount(kept[6] as string)).toBe(4);
    for (const name of others) expect(existsSync(join(backupsFolder(dir), name)), name).toBe(true);
    expect(readdirSync(backupsFolder(dir)).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('never deletes the last backup that holds an organization: a week of backups of an empty database comes in addition', async () => {
    // The warehouse's data, backed up on 31 October by the same installation.
    const before = mkdtempSync(join(tmpdir(), 'shipdesk-backups-before-'));
    const earlier = createAppContext({ dataDir: before });
    const lastGood = join(backupsFolder(dir), `${basename(app.db.$client.name, '.sqlite')}-2026-10-31.sqlite`);
    try {
      await createOrgWithOwner(earlier, { orgName: 'Kept', email: 'k@example.com', password: 'long enough password' });
      mkdirSync(backupsFolder(dir), { recursive: true });
      await backupTo(earlier, lastGood);
    } finally {
      earlier.close();
      rmSync(before, { recursive: true, force: true });
    }
    // Then ten days on a database with no organization in it.
    for (let day = 0; day < 10; day++) {
      await takeDailyBackup(app);
      nextDay();
    }
    const kept = dailyBackups(dir, app.db.$client.name);
    expect(kept).toHaveLength(8);
    expect(kept.at(-1)).toBe(lastGood);
    // Reading the backups left no -wal or -shm beside them (orgCount's read-only open would).
    expect(readdirSync(backupsFolder(dir)).filter((name) => !name.endsWith('.sqlite'))).toEqual([]);
    expect(orgCount(lastGood)).toBe(1);

    // Once a newer backup holds an organization, the rotation is the plain seven again.
    await createOrgWithOwner(app, { orgName: 'Set up at last', email: 's@example.com', password: 'long enough password' });
    await takeDailyBackup(app);
    expect(dailyBackups(dir, app.db.$client.name)).toHaveLength(7);
    expect(existsSync(lastGood)).toBe(false);
    // With the -wal and -shm that orgCount's read left beside it.
    expect(readdirSync(backupsFolder(dir)).filter((name) => !name.endsWith('.sqlite'))).toEqual([]);
  });

  it('takes the day’s backup when started and stops cleanly', async () => {
    const schedule = startDailyBackups(app, 60_000);
    await schedule.stop();
    expect(dailyBackups(dir, app.db.$client.name)).toHaveLength(1);
  });
});
