import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { receiverParty, setupLocalCarrier, shipmentBody, startTestServer, type TestServer } from '../../testing/harness';
import { startTestSmtpServer, type TestSmtpServer } from '../../testing/smtpServer';
import { createAppContext } from '../../app/runtime/createApp';
import { sendDueEmails, settleInterruptedEmails } from './messages';

let clock = new Date('2026-03-02T09:00:00.000Z');
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

let t: TestServer;
let smtp: TestSmtpServer;
let carrierId: string;
let senderAddressId: string;
let ruleWithEmail: string;
let ruleWithoutEmail: string;
const org = () => t.org.orgId;
const shipmentsPath = () => `/orgs/${org()}/shipments`;
const sql = () => t.app.db.$client;

async function createRule(body: Record<string, unknown>) {
  const res = await t.request('POST', `/orgs/${org()}/shipping-rules`, {
    body: { services: [], senderAddressId, receivingCountries: ['*'], conditions: [], carrierId, productId: 'local_parcel', ...body },
  });
  if (res.status !== 201) throw new Error(`rule: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

async function dispatchedWithRule(ruleId: string, reference: string) {
  const created = await t.request('POST', shipmentsPath(), { body: shipmentBody(carrierId, { reference, parties: [receiverParty({ name: 'Jens Hansen' })] }) });
  expect(created.status).toBe(201);
  const patched = await t.request('PATCH', `${shipmentsPath()}/${created.body.id}`, { body: { shippingRuleId: ruleId } });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  const sent = await t.request('POST', `${shipmentsPath()}/${created.body.id}/send`);
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return sent.body;
}

const messagesOf = (shipmentId: string) =>
  sql()
    .prepare('SELECT kind, status, attempts, to_address AS toAddress, last_error AS lastError FROM email_messages WHERE shipment_id = ?')
    .all(shipmentId) as {
    kind: string;
    status: string;
    attempts: number;
    toAddress: string;
    lastError: string | null;
  }[];

beforeAll(async () => {
  t = await startTestServer({ now: () => clock });
  sql().prepare("UPDATE orgs SET plan = 'unlimited' WHERE id = ?").run(org());
  smtp = await startTestSmtpServer();
  ({ carrierId, senderAddressId } = await setupLocalCarrier(t, t.org, { trackingUrlTemplate: 'https://track.acme.example/{trackingNumber}' }));
  const returnRule = await createRule({ name: 'Returns with e-mail', productId: 'local_return', emailNotification: true });
  ruleWithEmail = await createRule({ name: 'With e-mail', emailNotification: true, returnShippingRuleId: returnRule });
  ruleWithoutEmail = await createRule({ name: 'Without e-mail', emailNotification: false });
  const saved = await t.request('PUT', `/orgs/${org()}/email-settings`, {
    body: { host: smtp.host, port: smtp.port, secure: false, username: smtp.username, password: smtp.password, fromAddress: 'shop@example.com' },
  });
  expect(saved.status).toBe(200);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(() => {
  smtp.failWith = null;
});

describe('customer e-mails', () => {
  it('sends one dispatch e-mail with the tracking link, in the organization language, once', async () => {
    await t.request('PUT', `/orgs/${org()}`, { body: { language: 'da' } });
    const before = smtp.received.length;
    const shipment = await dispatchedWithRule(ruleWithEmail, 'WEB-2001');
    expect(messagesOf(shipment.id)).toMatchObject([{ kind: 'dispatched', status: 'queued', toAddress: 'jens@example.dk' }]);
    expect(await sendDueEmails(t.app)).toBe(1);
    await smtp.waitFor(before + 1);
    const mail = smtp.received[before]!;
    expect(mail.to).toEqual(['jens@example.dk']);
    expect(mail.subject).toBe('Din ordre WEB-2001 er på vej');
    expect(mail.text).toContain('Hej Jens Hansen');
    expect(shipment.tracking.url).toMatch(/^https:\/\/track\.acme\.example\//);
    expect(mail.text).toContain(shipment.tracking.url);
    expect(messagesOf(shipment.id)).toMatchObject([{ status: 'sent', attempts: 1 }]);
    expect(await sendDueEmails(t.app)).toBe(0);
    expect(smtp.received.length).toBe(before + 1);
    const read = (await t.request('GET', `${shipmentsPath()}/${shipment.id}`)).body;
    expect(read.activities.map((a: { action: string }) => a.action)).toContain('email_sent');
    await t.request('PUT', `/orgs/${org()}`, { body: { language: 'en' } });
  });

  it('sends none when the rule does not ask for e-mail', async () => {
    const shipment = await dispatchedWithRule(ruleWithoutEmail, 'WEB-2002');
    expect(messagesOf(shipment.id)).toEqual([]);
  });

  it('attaches the return label as a PDF to the return e-mail', async () => {
    const original = await dispatchedWithRule(ruleWithEmail, 'WEB-2003');
    await sendDueEmails(t.app);
    const before = smtp.received.length;
    const ret = await t.request('POST', `${shipmentsPath()}/${original.id}/create-return`);
    expect(ret.status, JSON.stringify(ret.body)).toBe(200);
    expect(messagesOf(ret.body.id)).toMatchObject([{ kind: 'return_label', toAddress: 'jens@example.dk' }]);
    expect(await sendDueEmails(t.app)).toBe(1);
    await smtp.waitFor(before + 1);
    const mail = smtp.received[before]!;
    expect(mail.subject).toBe('Your return label for order RET-WEB-2003');
    expect(mail.raw).toMatch(/Content-Type: application\/pdf; name=return-label-RET-WEB-2003\.pdf/);
  });

  it('retries a failed send on the schedule, recording each failure on the shipment', async () => {
    const shipment = await dispatchedWithRule(ruleWithEmail, 'WEB-2004');
    smtp.failWith = { code: 451, message: 'Try again later' };
    const refusedBefore = smtp.refusedCount;
    expect(await sendDueEmails(t.app)).toBe(1);
    expect(smtp.refusedCount).toBe(refusedBefore + 1);
    expect(messagesOf(shipment.id)).toMatchObject([{ status: 'queued', attempts: 1 }]);
    const read = (await t.request('GET', `${shipmentsPath()}/${shipment.id}`)).body;
    expect(JSON.stringify(read.errors)).toContain('could not be sent (attempt 1 of 6)');
    expect(await sendDueEmails(t.app)).toBe(0);
    smtp.failWith = null;
    advance(30_000);
    const before = smtp.received.length;
    expect(await sendDueEmails(t.app)).toBe(1);
    await smtp.waitFor(before + 1);
    expect(messagesOf(shipment.id)).toMatchObject([{ status: 'sent', attempts: 2 }]);
  });

  it('never sends twice: a message left sending by a crash is marked failed after a restart, not resent', async () => {
    const shipment = await dispatchedWithRule(ruleWithEmail, 'WEB-2005');
    sql().prepare("UPDATE email_messages SET status = 'sending', attempts = 1 WHERE shipment_id = ?").run(shipment.id);
    expect(settleInterruptedEmails(t.app)).toBe(1);
    expect(messagesOf(shipment.id)).toMatchObject([{ status: 'failed' }]);
    const before = smtp.received.length;
    advance(24 * 60 * 60_000);
    await sendDueEmails(t.app);
    expect(smtp.received.length).toBe(before);
  });

  it('gives up on a server that does not answer in time, records it, and retries with the same Message-ID', async () => {
    const shipment = await dispatchedWithRule(ruleWithEmail, 'WEB-2007');
    // The server takes the message but holds its answer longer than the client waits.
    smtp.delayMs = 1500;
    const short = { connectionMs: 1000, greetingMs: 1000, socketMs: 300 };
    const before = smtp.received.length;
    try {
      expect(await sendDueEmails(t.app, short)).toBe(1);
    } finally {
      smtp.delayMs = 0;
    }
    const [failed] = messagesOf(shipment.id);
    expect(failed).toMatchObject({ status: 'queued', attempts: 1 });
    expect(failed!.lastError).toMatch(/No usable answer from 127\.0\.0\.1:\d+ in time/);
    const read = (await t.request('GET', `${shipmentsPath()}/${shipment.id}`)).body;
    expect(JSON.stringify(read.errors)).toContain('could not be sent (attempt 1 of 6)');
    // The slow server may still deliver the first copy: the retry carries the same Message-ID, so the
    // receiving end can tell them apart from two e-mails.
    await smtp.waitFor(before + 1);
    advance(30_000);
    expect(await sendDueEmails(t.app)).toBe(1);
    await smtp.waitFor(before + 2);
    const copies = smtp.received.slice(before).filter((mail) => mail.subject === 'Your order WEB-2007 is on its way');
    expect(copies).toHaveLength(2);
    expect(copies[0]!.messageId).toBeTruthy();
    expect(copies[1]!.messageId).toBe(copies[0]!.messageId);
    expect(messagesOf(shipment.id)).toMatchObject([{ status: 'sent', attempts: 2 }]);
  });

  // Last in the file: it closes the test server's database.
  it('resumes retries after a restart (the SQLite file reopened) and sends the e-mail once', async () => {
    const shipment = await dispatchedWithRule(ruleWithEmail, 'WEB-2006');
    smtp.failWith = { code: 421, message: 'Service not available' };
    expect(await sendDueEmails(t.app)).toBe(1);
    smtp.failWith = null;
    expect(messagesOf(shipment.id)).toMatchObject([{ status: 'queued', attempts: 1 }]);
    // The restart: this process's database is closed (the test server's last use) and the file opened anew.
    t.app.close();
    const reopened = createAppContext({ dataDir: t.dir, now: () => clock });
    try {
      expect(settleInterruptedEmails(reopened)).toBe(0);
      advance(30_000);
      const before = smtp.received.length;
      expect(await sendDueEmails(reopened)).toBe(1);
      await smtp.waitFor(before + 1);
      expect(await sendDueEmails(reopened)).toBe(0);
      expect(smtp.received.filter((mail) => mail.subject === 'Your order WEB-2006 is on its way')).toHaveLength(1);
      const row = reopened.db.$client.prepare('SELECT status, attempts FROM email_messages WHERE shipment_id = ?').get(shipment.id);
      expect(row).toEqual({ status: 'sent', attempts: 2 });
    } finally {
      reopened.close();
    }
  });
});
