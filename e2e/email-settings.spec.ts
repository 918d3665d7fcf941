import AxeBuilder from '@axe-core/playwright';
import { startTestSmtpServer, type TestSmtpServer } from '../src-main/testing/smtpServer';
import { expect, test } from './fixtures';
import { seedOrganization, signIn } from './seed';

/**
 * Organization settings → E-mail (issue 22): the SMTP server saved from the screen, a template and the
 * language changed, and the "Send test e-mail" button, against a real SMTP server on this machine.
 */
let smtp: TestSmtpServer;
test.beforeAll(async () => {
  smtp = await startTestSmtpServer();
});
test.afterAll(async () => {
  await smtp.close();
});

test('the mail server is set up from the screen, a test e-mail arrives, and a refused login is said in plain words', async ({ page }) => {
  const owner = { orgName: 'Post Lager', name: 'Eva Ejer', email: 'eva@postlager.example', password: 'a long password' };
  const { call: api } = await seedOrganization(page.request, owner);
  await signIn(page, owner.email, owner.password);
  await page.goto('/#/shipments');
  await page.getByRole('navigation').getByRole('link', { name: 'Organization' }).click();
  const section = page.getByRole('region', { name: 'E-mail' });
  await expect(section.getByRole('button', { name: 'Save e-mail settings' })).toBeVisible();

  // Nothing saved yet: no templates or test button until there is a server.
  await expect(section.getByRole('button', { name: 'Send test e-mail' })).toHaveCount(0);
  await section.getByLabel('Server name (required)').fill(smtp.host);
  await section.getByLabel('Port (required)').fill(String(smtp.port));
  await section.getByLabel('User name').fill(smtp.username);
  await section.getByLabel('Password').fill(smtp.password);
  await section.getByLabel('Sender address (required)').fill('shop@postlager.example');
  await section.getByRole('button', { name: 'Save e-mail settings' }).click();
  await expect(section.getByRole('status').first()).toHaveText('E-mail settings saved.');

  // Saved with the password sealed: the API shows it masked, never as typed.
  const saved = await api('GET', '/email-settings');
  expect(saved).toMatchObject({ host: smtp.host, port: smtp.port, secure: false, username: smtp.username, fromAddress: 'shop@postlager.example' });
  expect(saved.password).not.toBe(smtp.password);
  expect(saved.password).toContain('••••');

  // The Danish "shipment sent" subject rewritten, and Danish chosen for customer e-mails.
  const danish = section.getByRole('group', { name: 'Shipment sent · Danish' });
  await expect(danish.getByLabel('Subject')).toHaveValue(/\{\{orderNumber\}\}/);
  await danish.getByLabel('Subject').fill('Pakken til ordre {{orderNumber}} er sendt');
  await section.getByLabel('Language of customer e-mails').selectOption({ label: 'Danish' });
  await section.getByRole('button', { name: 'Save e-mail settings' }).click();
  await expect(section.getByRole('status').first()).toHaveText('E-mail settings saved.');
  expect((await api('GET', '/email-settings')).templates.dispatched.da.subject).toBe('Pakken til ordre {{orderNumber}} er sendt');
  expect((await api('GET', '')).language).toBe('da');

  // An unknown placeholder is refused at the field, in plain words.
  await danish.getByLabel('Subject').fill('Ordre {{ordernummer}}');
  await section.getByRole('button', { name: 'Save e-mail settings' }).click();
  await expect(section.getByText(/\{\{ordernummer\}\}/).last()).toBeVisible();
  await expect(danish.getByLabel('Subject')).toHaveAttribute('aria-invalid', 'true');
  await danish.getByLabel('Subject').fill('Pakken til ordre {{orderNumber}} er sendt');

  const received = smtp.received.length;
  await section.getByLabel('Send to').fill('warehouse@postlager.example');
  await section.getByRole('button', { name: 'Send test e-mail' }).click();
  await expect(section.getByText(/^Sent: .*warehouse@postlager\.example.*\(\d+ ms\)$/)).toBeVisible();
  await smtp.waitFor(received + 1);
  expect(smtp.received[received]).toMatchObject({ from: 'shop@postlager.example', to: ['warehouse@postlager.example'] });

  // The server refuses the login: the button says so, in words a user can act on.
  smtp.refuseAuth = true;
  try {
    await section.getByRole('button', { name: 'Send test e-mail' }).click();
    await expect(section.getByText(/^Not sent: The SMTP server refused the user name or password\./)).toBeVisible();
  } finally {
    smtp.refuseAuth = false;
  }
  expect(smtp.received.length).toBe(received + 1);

  const axe = await new AxeBuilder({ page }).include('#email-settings-title').include('.email-settings').analyze();
  expect(axe.violations).toEqual([]);
});
