import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_COMMANDS } from './cli/commands';
import { createAppContext } from './app/runtime/createApp';
import { createOrderChannel } from './domain/orderChannels/orderChannels';
import { createOrgWithOwner } from './domain/orgs/orgs';
import { getUsage } from './domain/orgs/usage';
import { cliErrorBody, runCliProcess, type CliRun } from './testing/cliProcess';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'shipdesk-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]): Promise<CliRun> => runCliProcess(dir, args);

describe('the CLI', () => {
  it('inits, changes a plan and backs up, printing JSON on stdout only', async () => {
    const init = await cli('init', '--org', 'Cli Warehouse', '--email', 'cli@example.com', '--password', 'a long password', '--token');
    expect(init.code).toBe(0);
    const created = JSON.parse(init.stdout) as { orgId: string; token: string };
    expect(created.token).toMatch(/^shpd_/);
    const plan = await cli('org', 'set-plan', created.orgId, 'pro');
    expect([plan.code, (JSON.parse(plan.stdout) as { plan: string }).plan]).toEqual([0, 'pro']);
    const file = join(dir, 'copy.sqlite');
    const backup = await cli('backup', file);
    expect([backup.code, JSON.parse(backup.stdout)]).toEqual([0, { backup: file }]);
    // Again onto the same file: replaced by a whole backup, nothing half-written left beside it.
    expect((await cli('backup', file)).code).toBe(0);
    expect(readdirSync(dir).filter((name) => name.startsWith('copy.sqlite'))).toEqual(['copy.sqlite']);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    const copy = new Database(file, { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.prepare('SELECT count(*) FROM orgs').pluck().get()).toBe(1);
    } finally {
      copy.close();
    }
    const nowhere = await cli('backup', join(dir, 'no-such-folder', 'copy.sqlite'));
    expect([nowhere.code, nowhere.stdout]).toEqual([1, '']);
  }, 30_000);

  it('answers every mistake with the error body on stderr, a non-zero exit and nothing on stdout', async () => {
    const cases: [string[], string, RegExp][] = [
      [[], 'BAD_REQUEST', /No command given/],
      [['bogus'], 'BAD_REQUEST', /Unknown command "bogus"/],
      [['org', 'delete', 'x'], 'BAD_REQUEST', /Unknown command "org delete x"/],
      [['backup'], 'VALIDATION_FAILED', /Missing <file>/],
      [['backup', '--help'], 'BAD_REQUEST', /--help/],
      [['backup', join(dir, 'a.sqlite'), 'extra'], 'BAD_REQUEST', /Unexpected argument "extra"/],
      [['org', 'set-plan', 'org_x'], 'VALIDATION_FAILED', /Missing <plan>/],
      [['org', 'set-plan', 'org_x', 'pro', 'extra'], 'BAD_REQUEST', /Unexpected argument "extra"/],
    ];
    for (const [args, code, message] of cases) {
      const run = await cli(...args);
      expect(run.code, args.join(' ')).not.toBe(0);
      expect(run.stdout, args.join(' ')).toBe('');
      expect(cliErrorBody(run), args.join(' ')).toMatchObject({ code, message: expect.stringMatching(message) });
    }
    // `backup --help` must not have written a file called "--help".
    expect(existsSync(join(dir, '--help'))).toBe(false);
    expect(existsSync(join(dir, 'a.sqlite'))).toBe(false);
  }, 60_000);

  it('refuses to back up onto the database or a file beside it, which would damage it under a running app', async () => {
    const init = await cli('init', '--org', 'Own File Hall', '--email', 'ownfile@example.com', '--password', 'a long password');
    expect(init.code).toBe(0);
    // The app has the database open, as it has while a nightly script runs `backup`.
    const app = createAppContext({ dataDir: dir });
    try {
      const database = join(dir, 'shipdesk.sqlite');
      const inode = statSync(database).ino;
      mkdirSync(join(dir, 'via'));
      symlinkSync(dir, join(dir, 'via', 'link'));
      const targets = [database, 'shipdesk.sqlite', `./shipdesk.sqlite-wal`, `${database}-shm`, join(dir, 'via', 'link', 'shipdesk.sqlite')];
      for (const target of targets) {
        const run = await cli('backup', target);
        expect([run.code, run.stdout], target).toEqual([1, '']);
        expect(cliErrorBody(run), target).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/database/) });
      }
      // Still the file the app has open, and what the app writes now is kept whole.
      expect(statSync(database).ino).toBe(inode);
      await createOrgWithOwner(app, { orgName: 'After', email: 'after@example.com', password: 'a long password' });
    } finally {
      app.close();
    }
    const reopened = new Database(join(dir, 'shipdesk.sqlite'), { readonly: true });
    try {
      expect(reopened.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(reopened.prepare("SELECT count(*) FROM orgs WHERE name = 'After'").pluck().get()).toBe(1);
    } finally {
      reopened.close();
    }
  }, 60_000);

  it('imports orders from a CSV file for an organization, like the API; a missing file or organization is an error body', async () => {
    const init = JSON.parse((await cli('init', '--org', 'Csv Hall', '--email', 'csv@example.com', '--password', 'a long password', '--token')).stdout) as {
      orgId: string;
      token: string;
    };
    // The channel, made on the same data folder as the app would make it.
    const app = createAppContext({ dataDir: dir });
    const channel = createOrderChannel(app, init.orgId, { name: 'Nightly', type: 'csv', config: {} });
    app.close();
    const file = join(dir, 'orders.csv');
    writeFileSync(
      file,
      `orderNumber;orderChannelId;customerName;lineName;lineQuantity;lineWeight\nN-1;${channel.id};Åse;Mug;2;0,4\nN-2;${channel.id};Bo;Tea;0;1\n`,
    );
    const run = await cli('orders', 'import', init.orgId, file);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ created: 1, skipped: 0, errors: [{ row: 3, message: expect.stringContaining('lineQuantity') }] });
    const again = await cli('orders', 'import', init.orgId, file);
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, skipped: 1 });

    const missingFile = await cli('orders', 'import', init.orgId, join(dir, 'nope.csv'));
    expect([missingFile.code, missingFile.stdout, cliErrorBody(missingFile).code]).toEqual([1, '', 'VALIDATION_FAILED']);
    const unknownOrg = await cli('orders', 'import', 'org_nope', file);
    expect(cliErrorBody(unknownOrg).code).toBe('ORG_NOT_FOUND');
    expect(cliErrorBody(await cli('orders', 'import', init.orgId)).message).toContain('Missing <file>');

    // A nightly file larger than an HTTP body may be (1 MiB) goes through the same operation.
    const longName = 'A customer with a long name '.repeat(8);
    const rows = Array.from({ length: 5_000 }, (_, i) => `BIG-${i};${channel.id};${longName}${i};Mug;1;0,4`);
    const bigFile = join(dir, 'big.csv');
    writeFileSync(bigFile, `orderNumber;orderChannelId;customerName;lineName;lineQuantity;lineWeight\n${rows.join('\n')}\n`);
    expect(statSync(bigFile).size).toBeGreaterThan(1024 * 1024);
    const big = await cli('orders', 'import', init.orgId, bigFile);
    expect(JSON.parse(big.stdout)).toEqual({ created: 5_000, skipped: 0, errors: [] });
    const empty = join(dir, 'empty.csv');
    writeFileSync(empty, '');
    const refused = cliErrorBody(await cli('orders', 'import', init.orgId, empty));
    expect(refused).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '<file.csv>', message: 'The CSV file is empty' }] });
  }, 60_000);

  it('refuses a CSV file that is not UTF-8 instead of importing its names garbled', async () => {
    const init = JSON.parse((await cli('init', '--org', 'Latin Hall', '--email', 'latin@example.com', '--password', 'a long password')).stdout) as {
      orgId: string;
    };
    const app = createAppContext({ dataDir: dir });
    const channel = createOrderChannel(app, init.orgId, { name: 'Old Excel', type: 'csv', config: {} });
    app.close();
    // Excel's plain "CSV" is Windows-1252: the ø of Søren is the one byte 0xF8.
    const file = join(dir, 'windows-1252.csv');
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from(`orderNumber,orderChannelId,customerName,lineName,lineQuantity\nW-1,${channel.id},S`),
        Buffer.from([0xf8]),
        Buffer.from('ren,Mug,1\n'),
      ]),
    );
    const run = await cli('orders', 'import', init.orgId, file);
    expect([run.code, run.stdout]).toEqual([1, '']);
    const message =
      'The CSV file is not UTF-8 text (line 2 has a character that cannot be read); save it as "CSV UTF-8" in Excel, or as UTF-8 in other programs';
    expect(cliErrorBody(run)).toMatchObject({ code: 'VALIDATION_FAILED', message, details: [{ path: '<file.csv>', message }] });

    // The same file saved as "CSV UTF-8" (with the byte-order mark Excel writes) imports as it is.
    writeFileSync(file, `\uFEFForderNumber,orderChannelId,customerName,lineName,lineQuantity\nW-1,${channel.id},Søren,Mug,1\n`);
    const fixed = await cli('orders', 'import', init.orgId, file);
    expect(JSON.parse(fixed.stdout)).toEqual({ created: 1, skipped: 0, errors: [] });
    const db = new Database(join(dir, 'shipdesk.sqlite'), { readonly: true });
    expect(db.prepare("SELECT customer_name AS name FROM orders WHERE order_number = 'W-1'").get()).toEqual({ name: 'Søren' });
    db.close();
  }, 60_000);

  it('gives an organization extra carriers: the limit and the usage show them; 0 takes them away', async () => {
    const init = JSON.parse((await cli('init', '--org', 'Add-on Hall', '--email', 'addon@example.com', '--password', 'a long password')).stdout) as {
      orgId: string;
    };
    const usage = () => {
      const app = createAppContext({ dataDir: dir });
      try {
        return getUsage(app, init.orgId);
      } finally {
        app.close();
      }
    };
    expect(usage().limits.carriers.limit).toBe(3);

    const set = await cli('org', 'set-add-on', init.orgId, 'extra_carrier', '2', '--unit-price', '4900');
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ orgId: init.orgId, addOns: [{ type: 'extra_carrier', quantity: 2, unitPrice: 4900, totalPrice: 9800 }] });
    expect(usage()).toMatchObject({ limits: { carriers: { limit: 5 } }, addOns: [{ type: 'extra_carrier', quantity: 2, unitPrice: 4900, totalPrice: 9800 }] });

    // Setting it again replaces it, never adds a second row.
    expect(JSON.parse((await cli('org', 'set-add-on', init.orgId, 'extra_carrier', '1')).stdout).addOns).toEqual([
      { type: 'extra_carrier', quantity: 1, unitPrice: 0, totalPrice: 0 },
    ]);
    expect(usage().limits.carriers.limit).toBe(4);
    expect(JSON.parse((await cli('org', 'set-add-on', init.orgId, 'extra_carrier', '0')).stdout).addOns).toEqual([]);
    expect(usage()).toMatchObject({ limits: { carriers: { limit: 3 } }, addOns: [] });

    const cases: [string[], string, RegExp][] = [
      [['org', 'set-add-on', init.orgId, 'extra_seat', '1'], 'VALIDATION_FAILED', /type/],
      [['org', 'set-add-on', init.orgId, 'extra_carrier', 'two'], 'VALIDATION_FAILED', /quantity/],
      [['org', 'set-add-on', init.orgId, 'extra_carrier', '1.5'], 'VALIDATION_FAILED', /quantity/],
      [['org', 'set-add-on', init.orgId, 'extra_carrier'], 'VALIDATION_FAILED', /Missing <quantity>/],
      [['org', 'set-add-on', 'org_nope', 'extra_carrier', '1'], 'ORG_NOT_FOUND', /org_nope/],
    ];
    for (const [args, code, message] of cases) {
      const run = await cli(...args);
      expect([run.code, run.stdout], args.join(' ')).toEqual([1, '']);
      expect(cliErrorBody(run), args.join(' ')).toMatchObject({ code, message: expect.stringMatching(message) });
    }
  }, 60_000);

  it('shows the help on --help with exit 0', async () => {
    const help = await cli('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: shipdesk <command>');
    // Every command the CLI accepts is explained there.
    for (const command of CLI_COMMANDS) expect(help.stdout).toMatch(new RegExp(`^  ${command}( |$)`, 'm'));
  });
});
