import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT } from '../../http/server';
import { startTestServer, type TestOrg, type TestServer } from '../../testing/harness';
import { CsvSyntaxError, detectSeparator, parseCsv } from './csvImport';

describe('parseCsv', () => {
  it('splits plain rows on LF, CRLF and CR, without a record for the final line break', () => {
    expect(parseCsv('a,b\n1,2\n')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(parseCsv('a,b\r\n1,2\r\n3,4')).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
    ]);
    expect(parseCsv('a\r1')).toEqual([['a'], ['1']]);
    expect(parseCsv('')).toEqual([]);
  });

  it('reads quoted fields with commas, line breaks and doubled quotes', () => {
    expect(parseCsv('"a,b","say ""hi""","two\nlines","crlf\r\nkept"\n')).toEqual([['a,b', 'say "hi"', 'two\nlines', 'crlf\r\nkept']]);
    expect(parseCsv('"",x,""\n')).toEqual([['', 'x', '']]);
  });

  it('keeps empty fields and drops a leading BOM', () => {
    expect(parseCsv('\uFEFFa,,c\n,,\n')).toEqual([
      ['a', '', 'c'],
      ['', '', ''],
    ]);
  });

  it('keeps a quote inside an unquoted field, refuses text after a closing quote and an unclosed quote', () => {
    expect(parseCsv('5" screen,x')).toEqual([['5" screen', 'x']]);
    expect(() => parseCsv('a\n"b"c\n')).toThrow(CsvSyntaxError);
    expect(() => parseCsv('a\n"b"c\n')).toThrow(/^Row 2: text after the closing quote/);
    expect(() => parseCsv('a\nb\n"open,\n')).toThrow(/^Row 3: a quoted field is not closed/);
  });

  it('reads a semicolon file (Excel under a Danish locale) when its header has semicolons and no comma', () => {
    expect(detectSeparator('orderNumber;orderChannelId\r\n1;"a,b"')).toBe(';');
    expect(detectSeparator('"orderNumber";"lineName"\n')).toBe(';');
    expect(detectSeparator('orderNumber,orderChannelId\n1;2')).toBe(',');
    expect(detectSeparator('orderNumber\n1;2')).toBe(',');
    expect(parseCsv('a;b\r\n"x;y";1,5\r\n', ';')).toEqual([
      ['a', 'b'],
      ['x;y', '1,5'],
    ]);
  });
});

let t: TestServer;
let channelId: string;
let otherChannelId: string;
let foreignChannelId: string;
let other: TestOrg;

const importPath = (org: TestOrg = t.org) => `/orgs/${org.orgId}/orders/import`;
const importCsv = (csv: string, options: { token?: string; contentType?: string } = {}) =>
  t.request('POST', importPath(), {
    rawBody: csv,
    headers: { 'content-type': options.contentType ?? 'text/csv' },
    ...(options.token ? { token: options.token } : {}),
  });
const db = () => t.app.db.$client;
const orderRows = (channel: string) =>
  db()
    .prepare('SELECT id, order_number AS orderNumber, customer_name AS customerName FROM orders WHERE order_channel_id = ? ORDER BY order_number')
    .all(channel) as {
    id: string;
    orderNumber: string;
    customerName: string | null;
  }[];
const lineRows = (orderId: string) =>
  db().prepare('SELECT name, sku, quantity, weight, requires_shipping AS requiresShipping FROM order_lines WHERE order_id = ? ORDER BY position').all(orderId);

const header =
  'orderNumber,orderChannelId,customerName,customerEmail,totalAmount,currency,shippingName,shippingAddress1,shippingCity,shippingPostalCode,shippingCountryCode,lineName,lineSku,lineQuantity,lineUnitPrice,lineWeight,lineRequiresShipping';

function row(orderNumber: string, channel: string, line: { name?: string; sku?: string; quantity?: string; country?: string; customer?: string } = {}) {
  return [
    orderNumber,
    channel,
    line.customer ?? '"Hansen, Jens"',
    'jens@example.dk',
    '190',
    'DKK',
    'Jens Hansen',
    'Nørregade 1',
    'København K',
    '1165',
    line.country ?? 'DK',
    line.name ?? 'Mug',
    line.sku ?? 'MUG-01',
    line.quantity ?? '2',
    '49.5',
    '0.4',
    'yes',
  ].join(',');
}

beforeAll(async () => {
  t = await startTestServer();
  const create = async (org: TestOrg, name: string) => {
    const res = await t.request('POST', `/orgs/${org.orgId}/order-channels`, { token: org.token, body: { name, type: 'csv' } });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body.id as string;
  };
  channelId = await create(t.org, 'Spreadsheet');
  otherChannelId = await create(t.org, 'Second spreadsheet');
  other = await t.createOrg('Other Org');
  foreignChannelId = await create(other, 'Theirs');
});
afterAll(() => t.close());

describe('POST /orders/import', () => {
  it('imports 3 orders (one of 2 lines) and skips all 3 when the same file comes again', async () => {
    const csv =
      '\uFEFF' +
      [
        header,
        row('A-1', channelId, { name: '"Mug, large"', sku: 'MUG-L' }),
        row('A-1', channelId, { name: 'Tea', sku: 'TEA-02', quantity: '3' }),
        row('A-2', channelId),
        row('A-3', channelId),
      ].join('\r\n') +
      '\r\n';
    const first = await importCsv(csv);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ created: 3, skipped: 0, errors: [] });

    const saved = orderRows(channelId);
    expect(saved.map((order) => order.orderNumber)).toEqual(['A-1', 'A-2', 'A-3']);
    expect(saved[0]?.customerName).toBe('Hansen, Jens');
    expect(lineRows(saved[0]?.id as string)).toEqual([
      { name: 'Mug, large', sku: 'MUG-L', quantity: 2, weight: 0.4, requiresShipping: 1 },
      { name: 'Tea', sku: 'TEA-02', quantity: 3, weight: 0.4, requiresShipping: 1 },
    ]);
    const detail = await t.request('GET', `/orgs/${t.org.orgId}/orders/${saved[0]?.id}`);
    expect(detail.body.shippingAddress).toMatchObject({ name: 'Jens Hansen', city: 'København K', countryCode: 'DK' });
    expect(detail.body.totalAmount).toBe(190);
    const events = db().prepare("SELECT count(*) AS n FROM outbox_events WHERE type = 'order.created' AND org_id = ?").get(t.org.orgId) as { n: number };
    expect(events.n).toBe(3);

    const again = await importCsv(csv);
    expect(again.body).toEqual({ created: 0, skipped: 3, errors: [] });
    expect(orderRows(channelId)).toHaveLength(3);
  });

  it('reads the bin of each line from the lineLocation column; a line left empty has none', async () => {
    const csv = [
      'orderNumber,orderChannelId,lineName,lineSku,lineQuantity,lineLocation',
      `L-1,${channelId},Mug,MUG,2, A-03-2 `,
      `L-1,${channelId},Tea,TEA,1,`,
    ].join('\n');
    expect((await importCsv(csv)).body).toEqual({ created: 1, skipped: 0, errors: [] });
    const order = orderRows(channelId).find((saved) => saved.orderNumber === 'L-1');
    const detail = await t.request('GET', `/orgs/${t.org.orgId}/orders/${order?.id}`);
    expect(detail.body.orderLines.map((line: { sku: string; location: string | null }) => [line.sku, line.location])).toEqual([
      ['MUG', 'A-03-2'],
      ['TEA', null],
    ]);
  });

  it('imports nothing of an order with a bad row, and the other orders; errors name the row', async () => {
    const csv = [
      header,
      row('B-1', otherChannelId),
      row('B-2', otherChannelId),
      row('B-2', otherChannelId, { name: 'Tea', quantity: '0', country: 'XX' }),
      row('B-3', otherChannelId, { quantity: 'two' }),
      row('B-4', otherChannelId),
      row('B-4', otherChannelId, { customer: 'Someone Else' }),
      row('B-5', foreignChannelId),
      row('B-6', otherChannelId),
    ].join('\n');
    const res = await importCsv(csv);
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(2);
    expect(res.body.skipped).toBe(0);
    expect(res.body.errors).toEqual([
      { row: 4, message: 'shippingCountryCode: "XX" differs from "DK" in row 3, the first row of order B-2' },
      { row: 4, message: 'lineQuantity: Must be at least 1' },
      { row: 5, message: 'lineQuantity: "two" is not a number (use a dot for decimals)' },
      { row: 7, message: 'customerName: "Someone Else" differs from "Hansen, Jens" in row 6, the first row of order B-4' },
      { row: 8, message: `Order channel ${foreignChannelId} does not exist in this organization` },
    ]);
    expect(orderRows(otherChannelId).map((order) => order.orderNumber)).toEqual(['B-1', 'B-6']);
    expect(orderRows(foreignChannelId)).toEqual([]);
  });

  it('reports schema errors at the row and column they come from', async () => {
    const csv = [
      'orderNumber,orderChannelId,lineName,lineQuantity,shippingName,lineCountryOfOrigin',
      `C-1,${channelId},Mug,1,Jens,XX`,
      `,${channelId},Mug,1,,`,
    ].join('\n');
    const res = await importCsv(csv);
    expect(res.body.created).toBe(0);
    expect(res.body.errors).toEqual([
      { row: 2, message: 'lineCountryOfOrigin: Must be an upper-case ISO 3166-1 alpha-2 country code, e.g. DK' },
      { row: 2, message: 'shippingAddress1: Required' },
      { row: 2, message: 'shippingCity: Required' },
      { row: 2, message: 'shippingPostalCode: Required' },
      { row: 2, message: 'shippingCountryCode: Required' },
      { row: 3, message: 'orderNumber: Required' },
    ]);
  });

  it('refuses the whole file for unknown columns, a missing required column or no rows (400)', async () => {
    const unknown = await importCsv(`orderNumber,orderChannelId,lineName,lineQuantity,colour\nD-1,${channelId},Mug,1,red\n`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('VALIDATION_FAILED');
    expect(unknown.body.message).toMatch(/^Unknown column "colour" in the header row/);
    expect(unknown.body.details).toEqual([{ path: 'body', message: 'Unknown column "colour"' }]);

    const missing = await importCsv(`ORDERNUMBER,orderchannelid,lineName\nD-1,${channelId},Mug\n`);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('The header row lacks the required column lineQuantity');

    for (const csv of ['', '\n', 'orderNumber,orderChannelId,lineName,lineQuantity\n']) {
      const res = await importCsv(csv);
      expect(res.status, JSON.stringify(csv)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
    }
    const unclosed = await importCsv(`orderNumber,orderChannelId,lineName,lineQuantity\nD-1,${channelId},"Mug,1\n`);
    expect(unclosed.status).toBe(400);
    expect(unclosed.body.message).toBe('The CSV file cannot be read: Row 2: a quoted field is not closed');
    expect(db().prepare("SELECT count(*) AS n FROM orders WHERE order_number LIKE 'D-%'").get()).toEqual({ n: 0 });
  });

  it('reads what Danish Excel saves: semicolons, BOM, CRLF, decimal commas, rows of bare separators, a nameless empty column', async () => {
    const csv =
      '\uFEFF' +
      [
        ' OrderNumber ;ORDERCHANNELID;customerName;lineName;lineQuantity;lineWeight;lineUnitPrice;',
        `S-1;${channelId};"Hansen; Jens";"Krus ""Blå""";2;0,4;49,50;`,
        `S-2;${channelId};Ida Berg;Tekande;1;1,25;;`,
        ';;;;;;;',
        `S-1;${channelId};;Te;3;0,1;12;`,
        ';;;;;;;',
        '',
      ].join('\r\n') +
      '\r\n\r\n';
    const res = await importCsv(csv);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ created: 2, skipped: 0, errors: [] });
    const [first, second] = orderRows(channelId).filter((order) => order.orderNumber.startsWith('S-'));
    expect(first?.customerName).toBe('Hansen; Jens');
    expect(lineRows(first?.id as string)).toEqual([
      { name: 'Krus "Blå"', sku: null, quantity: 2, weight: 0.4, requiresShipping: 1 },
      { name: 'Te', sku: null, quantity: 3, weight: 0.1, requiresShipping: 1 },
    ]);
    expect(db().prepare('SELECT unit_price AS unitPrice FROM order_lines WHERE order_id = ? ORDER BY position').all(first?.id)).toEqual([
      { unitPrice: 49.5 },
      { unitPrice: 12 },
    ]);
    expect(lineRows(second?.id as string)).toEqual([{ name: 'Tekande', sku: null, quantity: 1, weight: 1.25, requiresShipping: 1 }]);
  });

  it('takes the decimal mark that goes with the separator, and reports the other at its row', async () => {
    const semicolons = ['orderNumber;orderChannelId;lineName;lineQuantity;lineWeight', `G-1;${channelId};Mug;1;0.4`, `G-2;${channelId};Mug;1;1.250,5`].join(
      '\n',
    );
    const res = await importCsv(semicolons);
    expect(res.body).toEqual({
      created: 0,
      skipped: 0,
      errors: [
        { row: 2, message: 'lineWeight: "0.4" is not a number (in a file separated by semicolons, use a comma for decimals)' },
        { row: 3, message: 'lineWeight: "1.250,5" is not a number (in a file separated by semicolons, use a comma for decimals)' },
      ],
    });
    const commas = await importCsv(['orderNumber,orderChannelId,lineName,lineQuantity,lineWeight', `G-3,${channelId},Mug,1,"0,4"`].join('\n'));
    expect(commas.body.errors).toEqual([{ row: 2, message: 'lineWeight: "0,4" is not a number (use a dot for decimals)' }]);
    const nameless = await importCsv(['orderNumber,orderChannelId,lineName,lineQuantity,', `G-4,${channelId},Mug,1,red`].join('\n'));
    expect(nameless.body.errors).toEqual([{ row: 2, message: 'Column 5 has no name in the header row; name it or leave it empty' }]);
    expect(db().prepare("SELECT count(*) AS n FROM orders WHERE order_number LIKE 'G-%'").get()).toEqual({ n: 0 });
  });

  it('refuses a file that is not UTF-8 (plain "CSV" from Excel is Windows-1252) rather than saving the name garbled', async () => {
    const windows1252 = Buffer.concat([
      Buffer.from(`orderNumber,orderChannelId,customerName,lineName,lineQuantity\r\nH-1,${channelId},Jens,Mug,1\r\nH-2,${channelId},S`),
      Buffer.from([0xf8]), // ø in Windows-1252
      Buffer.from('ren,Mug,1\r\n'),
    ]);
    const response = await fetch(`${t.url}${importPath()}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.org.token}`, 'content-type': 'text/csv' },
      body: windows1252,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'The CSV file is not UTF-8 text (line 3 has a character that cannot be read); save it as "CSV UTF-8" in Excel, or as UTF-8 in other programs',
    });
    expect(db().prepare("SELECT count(*) AS n FROM orders WHERE order_number LIKE 'H-%'").get()).toEqual({ n: 0 });
  });

  it('imports a UTF-8 file as it is, even one that holds a replacement character: only bytes that are not UTF-8 are refused', async () => {
    // The file's bytes are decoded strictly (src-shared/utf8Text.ts), so a "\ufffd" the import sees
    // is one the file holds, not one a decoder put there; it used to be refused as "not UTF-8".
    const response = await importCsv(`orderNumber,orderChannelId,customerName,lineName,lineQuantity\nH-9,${channelId},Bo \uFFFD Søren,Mug,1\n`);
    expect(response.body).toEqual({ created: 1, skipped: 0, errors: [] });
    expect(db().prepare("SELECT customer_name AS customerName FROM orders WHERE order_number = 'H-9'").get()).toEqual({ customerName: 'Bo \uFFFD Søren' });
  });

  it('accepts text/plain, refuses JSON (415) and bodies over 1 MiB (413)', async () => {
    const plain = await importCsv(`orderNumber,orderChannelId,lineName,lineQuantity\nE-1,${channelId},Mug,1\n`, { contentType: 'text/plain; charset=utf-8' });
    expect(plain.body).toEqual({ created: 1, skipped: 0, errors: [] });

    const json = await t.request('POST', importPath(), { body: { csv: 'orderNumber' } });
    expect(json.status).toBe(415);
    expect(json.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(json.body.message).toBe('Send the body as text/csv');
    // Excel's own type and a form post too: the message names what the import takes.
    for (const contentType of ['application/vnd.ms-excel', 'application/x-www-form-urlencoded']) {
      const other = await importCsv(`orderNumber\n1\n`, { contentType });
      expect(other.status).toBe(415);
      expect(other.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the body as text/csv' });
    }

    const big = await importCsv(`orderNumber,orderChannelId,lineName,lineQuantity\n${'x'.repeat(Math.ceil(BODY_LIMIT * 1.1))}`);
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses CSV sent to a JSON operation (415)', async () => {
    const res = await t.request('POST', `/orgs/${t.org.orgId}/orders`, { rawBody: 'orderNumber\n1', headers: { 'content-type': 'text/csv' } });
    expect(res.status).toBe(415);
    expect(res.body.message).toBe('Send the body as application/json');
    const plain = await t.request('POST', `/orgs/${t.org.orgId}/orders`, { rawBody: '{}', headers: { 'content-type': 'text/plain' } });
    expect(plain.status).toBe(415);
  });

  it('takes the channel of rows that name none from ?orderChannelId=, so a shop export needs no Shipdesk ids', async () => {
    const csv = 'orderNumber,customerName,lineName,lineQuantity\nX-1,Åse,Mug,1\nX-2,Bo,Tea,2\n';
    const withoutChannel = await importCsv(csv);
    expect(withoutChannel.status).toBe(400);
    expect(withoutChannel.body.message).toContain('lacks the required column orderChannelId');

    const res = await t.request('POST', `${importPath()}?orderChannelId=${otherChannelId}`, { rawBody: csv, headers: { 'content-type': 'text/csv' } });
    expect(res.body).toEqual({ created: 2, skipped: 0, errors: [] });
    expect(orderRows(otherChannelId).map((row) => row.orderNumber)).toEqual(expect.arrayContaining(['X-1', 'X-2']));
    // A row that names its channel keeps it.
    const mixed = `orderNumber,orderChannelId,lineName,lineQuantity\nX-3,${channelId},Mug,1\nX-4,,Mug,1\n`;
    const both = await t.request('POST', `${importPath()}?orderChannelId=${otherChannelId}`, { rawBody: mixed, headers: { 'content-type': 'text/csv' } });
    expect(both.body).toEqual({ created: 2, skipped: 0, errors: [] });
    expect(orderRows(channelId).map((row) => row.orderNumber)).toContain('X-3');
    expect(orderRows(otherChannelId).map((row) => row.orderNumber)).toContain('X-4');

    const unknown = await t.request('POST', `${importPath()}?orderChannelId=chn_nope`, { rawBody: csv, headers: { 'content-type': 'text/csv' } });
    expect(unknown.status).toBe(404);
    const foreign = await t.request('POST', `${importPath()}?orderChannelId=${foreignChannelId}`, { rawBody: csv, headers: { 'content-type': 'text/csv' } });
    expect(foreign.status).toBe(404);
  });

  it('needs write:orders', async () => {
    const csv = `orderNumber,orderChannelId,lineName,lineQuantity\nF-1,${channelId},Mug,1\n`;
    const readOnly = await importCsv(csv, { token: await t.tokenWithScopes(t.org, ['read:orders']) });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.code).toBe('FORBIDDEN');
    const writer = await importCsv(csv, { token: await t.tokenWithScopes(t.org, ['write:orders']) });
    expect(writer.body).toEqual({ created: 1, skipped: 0, errors: [] });
    const foreign = await t.request('POST', importPath(other), { rawBody: csv, headers: { 'content-type': 'text/csv' } });
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('ORG_ACCESS_DENIED');
  });
});

describe('a large file', () => {
  it('lets other requests through while it is written, and every order arrives', async () => {
    const total = 600;
    const csv = ['orderNumber,orderChannelId,customerName,lineName,lineQuantity']
      .concat(Array.from({ length: total }, (_, i) => `BIG-${i},${channelId},Kunde ${i},Mug,1`))
      .join('\n');
    const countBig = () => (db().prepare("SELECT count(*) AS n FROM orders WHERE order_number LIKE 'BIG-%'").get() as { n: number }).n;
    let settled = false;
    const importing = importCsv(csv).then((res) => {
      settled = true;
      return res;
    });
    // Part of the file is written and the server is free to answer someone else.
    await expect.poll(countBig, { interval: 1 }).toBeGreaterThan(0);
    expect(countBig()).toBeLessThan(total);
    const health = await t.request('GET', '/health', { token: null });
    expect(health.status).toBe(200);
    expect(settled).toBe(false);

    const res = await importing;
    expect(res.body).toEqual({ created: total, skipped: 0, errors: [] });
    expect(countBig()).toBe(total);
  });
});
