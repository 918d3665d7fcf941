import { existsSync, readFileSync } from 'node:fs';
import { databaseFile } from '../../app/runtime/config';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { startTestSmtpServer, type TestSmtpServer } from '../../testing/smtpServer';

let t: TestServer;
let smtp: TestSmtpServer;
beforeAll(async () => {
  t = await startTestServer();
  smtp = await startTestSmtpServer();
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(() => {
  smtp.failWith = null;
  smtp.refuseAuth = false;
});

const path = (orgId = t.org.orgId) => `/orgs/${orgId}/email-settings`;
const body = (overrides: Record<string, unknown> = {}) => ({
  host: smtp.host,
  port: smtp.port,
  secure: false,
  username: smtp.username,
  password: smtp.password,
  fromAddress: 'shop@example.com',
  ...overrides,
});

function databaseBytes(): string {
  const file = databaseFile(t.dir);
  expect(existsSync(file)).toBe(true);
  return [file, `${file}-wal`]
    .filter((name) => existsSync(name))
    .map((name) => readFileSync(name).toString('latin1'))
    .join('');
}

describe('e-mail settings', () => {
  it('reads null before any are saved', async () => {
    const org = await t.createOrg();
    const res = await t.request('GET', path(org.orgId), { token: org.token });
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
  });

  it('saves the settings with the password sealed in the database file and masked in reads', async () => {
    const saved = await t.request('PUT', path(), { body: body() });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      username: smtp.username,
      password: '••••1234',
      fromAddress: 'shop@example.com',
    });
    const read = await t.request('GET', path());
    expect(read.body).toEqual(saved.body);
    // The same check finds a secret that is there: the sender address is stored in clear.
    expect(databaseBytes()).toContain('shop@example.com');
    expect(databaseBytes()).not.toContain(smtp.password);
    expect(JSON.stringify(read.body)).not.toContain(smtp.password);
  });

  it('keeps the stored password when a PUT leaves it out or sends the mask back, and removes it with null', async () => {
    await t.request('PUT', path(), { body: body() });
    const { password: _password, ...withoutPassword } = body();
    const kept = await t.request('PUT', path(), { body: { ...withoutPassword, fromAddress: 'orders@example.com' } });
    expect(kept.body).toMatchObject({ password: '••••1234', fromAddress: 'orders@example.com' });
    const masked = await t.request('PUT', path(), { body: body({ password: '••••1234' }) });
    expect(masked.body.password).toBe('••••1234');
    const test = await t.request('POST', `${path()}/test`, { body: { to: 'me@example.com' } });
    expect(test.body).toMatchObject({ ok: true });
    const wrongMask = await t.request('PUT', path(), { body: body({ password: '••••9999' }) });
    expect(wrongMask.status).toBe(400);
    expect(wrongMask.body.code).toBe('VALIDATION_FAILED');
    const removed = await t.request('PUT', path(), { body: body({ password: null }) });
    expect(removed.body.password).toBeNull();
  });

  it('refuses a host with a scheme and a port out of range, in plain words', async () => {
    const res = await t.request('PUT', path(), { body: body({ host: 'smtp://mail.example.com', port: 70000 }) });
    expect(res.status).toBe(400);
    const paths = res.body.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['body.host', 'body.port']));
  });

  it('deletes the settings; a second delete is 404', async () => {
    const org = await t.createOrg();
    await t.request('PUT', path(org.orgId), { token: org.token, body: body() });
    const deleted = await t.request('DELETE', path(org.orgId), { token: org.token });
    expect(deleted.status).toBe(200);
    expect((await t.request('GET', path(org.orgId), { token: org.token })).body).toBeNull();
    const again = await t.request('DELETE', path(org.orgId), { token: org.token });
    expect(again.status).toBe(404);
  });

  it('needs write:orgs to save, read:orgs to read, and keeps organizations apart', async () => {
    const reader = await t.tokenWithScopes(t.org, ['read:orgs']);
    expect((await t.request('GET', path(), { token: reader })).status).toBe(200);
    expect((await t.request('PUT', path(), { token: reader, body: body() })).status).toBe(403);
    expect((await t.request('POST', `${path()}/test`, { token: reader, body: { to: 'me@example.com' } })).status).toBe(403);
    const other = await t.createOrg();
    expect((await t.request('GET', path(), { token: other.token })).status).toBe(403);
  });
});

describe('POST /orgs/{orgId}/email-settings/test', () => {
  it('sends a test e-mail through the saved server', async () => {
    await t.request('PUT', path(), { body: body() });
    const before = smtp.received.length;
    const res = await t.request('POST', `${path()}/test`, { body: { to: 'warehouse@example.com' } });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.message).toContain('warehouse@example.com');
    expect(Number.isInteger(res.body.durationMs)).toBe(true);
    await smtp.waitFor(before + 1);
    const received = smtp.received[before]!;
    expect(received.to).toEqual(['warehouse@example.com']);
    expect(received.from).toBe('shop@example.com');
    expect(received.subject).toContain('Test e-mail from Shipdesk');
  });

  it('says when the login is refused', async () => {
    await t.request('PUT', path(), { body: body({ password: 'wrong-password' }) });
    const res = await t.request('POST', `${path()}/test`, { body: { to: 'warehouse@example.com' } });
    expect(res.body.ok).toBe(false);
    expect(res.body.message).toMatch(/refused the user name or password/);
  });

  it('says when the connection is refused', async () => {
    const closed: Server = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await t.request('PUT', path(), { body: body({ port }) });
    const res = await t.request('POST', `${path()}/test`, { body: { to: 'warehouse@example.com' } });
    expect(res.body.ok).toBe(false);
    expect(res.body.message).toBe(`The SMTP server at 127.0.0.1:${port} refused the connection: check the server name and port.`);
  });

  it('says when TLS is expected but the server does not speak it', async () => {
    await t.request('PUT', path(), { body: body({ secure: true }) });
    const res = await t.request('POST', `${path()}/test`, { body: { to: 'warehouse@example.com' } });
    expect(res.body.ok).toBe(false);
    expect(res.body.message).toMatch(/TLS \(encryption\) problem/);
    expect(res.body.message).toMatch(/turn "secure" off/);
  });

  it('says when the server refuses the message', async () => {
    await t.request('PUT', path(), { body: body() });
    smtp.failWith = { code: 550, message: 'Mailbox unavailable' };
    const res = await t.request('POST', `${path()}/test`, { body: { to: 'warehouse@example.com' } });
    expect(res.body.ok).toBe(false);
    expect(res.body.message).toMatch(/refused the e-mail \(code 550\)/);
    expect(res.body.message).toContain('Mailbox unavailable');
  });

  it('asks for settings first when there are none', async () => {
    const org = await t.createOrg();
    const res = await t.request('POST', `${path(org.orgId)}/test`, { token: org.token, body: { to: 'warehouse@example.com' } });
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/Save the e-mail settings first/);
  });
});

describe('templates and language', () => {
  it('reads the default templates in English and Danish until the organization writes its own', async () => {
    const res = await t.request('PUT', path(), { body: body() });
    expect(res.body.templates.dispatched.en.subject).toBe('Your order {{orderNumber}} is on its way');
    expect(res.body.templates.dispatched.da.subject).toBe('Din ordre {{orderNumber}} er på vej');
    expect(res.body.templates.return_label.da.text).toContain('{{trackingUrl}}');
  });

  it('saves one template, keeps the others, and puts it back to the default with null', async () => {
    const own = { subject: 'Pakken er sendt: {{reference}}', text: 'Hej {{receiverName}}, se {{trackingUrl}}' };
    const saved = await t.request('PUT', path(), { body: body({ templates: { dispatched: { da: own } } }) });
    expect(saved.status).toBe(200);
    expect(saved.body.templates.dispatched.da).toEqual(own);
    expect(saved.body.templates.dispatched.en.subject).toBe('Your order {{orderNumber}} is on its way');
    const kept = await t.request('PUT', path(), { body: body() });
    expect(kept.body.templates.dispatched.da).toEqual(own);
    const reset = await t.request('PUT', path(), { body: body({ templates: { dispatched: { da: null } } }) });
    expect(reset.body.templates.dispatched.da.subject).toBe('Din ordre {{orderNumber}} er på vej');
  });

  it('refuses an unknown placeholder with a message naming it and the ones that exist', async () => {
    const res = await t.request('PUT', path(), {
      body: body({ templates: { return_label: { en: { subject: 'Return {{orderNo}}', text: 'Hi' } } } }),
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    const detail = res.body.details.find((d: { path: string }) => d.path === 'body.templates.return_label.en.subject');
    expect(detail.message).toContain('Unknown placeholder {{orderNo}}');
    expect(detail.message).toContain('{{orderNumber}}');
  });

  it('sets the organization language to Danish and refuses others', async () => {
    const org = await t.createOrg();
    expect((await t.request('GET', `/orgs/${org.orgId}`, { token: org.token })).body.language).toBe('en');
    const da = await t.request('PUT', `/orgs/${org.orgId}`, { token: org.token, body: { language: 'da' } });
    expect(da.body.language).toBe('da');
    const de = await t.request('PUT', `/orgs/${org.orgId}`, { token: org.token, body: { language: 'de' } });
    expect(de.status).toBe(400);
  });
});
