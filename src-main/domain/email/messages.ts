/**
 * Customer e-mails (issue 22): queued in `email_messages` in the booking's own transaction (one per
 * shipment and kind: the unique index is the "never twice" rule), delivered after commit by a
 * background sender on the webhook retry schedule (decisions §10), surviving restarts.
 */
import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import { effectiveTemplates, renderTemplate, type EmailKind, type EmailLanguage } from '../../../src-shared/emailTemplates';
import { carriers as carriersName, documents, emailMessages, orders, orgs, shipmentParties, shipments, shippingRules } from '../../db/schema';
import { newId } from '../../db/ids';
import { inWriteTransaction, type ReadDb, type WriteTx } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { repeatInBackground, type BackgroundTask } from '../../app/kernel/backgroundTask';
import { recordActivity, recordError, type ShipmentRecord } from '../shipments/repository';
import { RETRY_DELAYS_MS } from '../webhooks/delivery';
import { findEmailSettingsRow, smtpConfigOf } from './settings';
import { sendEmail, type SmtpTimeouts } from './smtp';

export const EMAIL_MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const MESSAGES_PER_RUN = 10;

export interface CustomerEmailPlan {
  kind: EmailKind;
  to: string;
}

/**
 * The one rule for customer e-mails: Shipdesk sends one when the organization has e-mail settings,
 * the shipment's applied rule (a return's own rule) has `emailNotification`, and the customer has an
 * e-mail address. When it does, the carrier's own e-mail notice is not requested (booking.ts).
 * The customer is the receiver of an outbound shipment and the sender of a return.
 */
export function customerEmailPlan(db: ReadDb, orgId: string, record: ShipmentRecord): CustomerEmailPlan | null {
  const { row } = record;
  const kind: EmailKind | null = row.returnForShipmentId ? 'return_label' : row.type === 'outbound' ? 'dispatched' : null;
  if (!kind || !row.shippingRuleId) return null;
  const rule = db.select({ email: shippingRules.emailNotification }).from(shippingRules).where(eq(shippingRules.id, row.shippingRuleId)).get();
  if (!rule?.email) return null;
  if (!findEmailSettingsRow(db, orgId)) return null;
  const customer = record.parties.find((party) => party.type === (kind === 'return_label' ? 'sender' : 'receiver'));
  const to = customer?.email?.trim();
  return to ? { kind, to } : null;
}

/** In the dispatch's transaction: queued once per shipment and kind, whatever happens after. */
export function queueCustomerEmail(tx: WriteTx, now: Date, orgId: string, shipmentId: string, plan: CustomerEmailPlan): void {
  const at = now.toISOString();
  tx.insert(emailMessages)
    .values({
      id: newId('emailMessage'),
      orgId,
      shipmentId,
      kind: plan.kind,
      toAddress: plan.to,
      status: 'queued',
      attempts: 0,
      nextAttemptAt: at,
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoNothing()
    .run();
}

type MessageRow = typeof emailMessages.$inferSelect;

const kindWords: Record<EmailKind, string> = { dispatched: 'dispatch e-mail', return_label: 'return label e-mail' };

/** The message as the customer gets it, from the shipment and the templates as they are now. */
function compose(app: AppContext, message: MessageRow) {
  const db = app.db;
  const settings = findEmailSettingsRow(db, message.orgId);
  if (!settings) return { problem: 'The e-mail settings were removed, so the e-mail was not sent.' } as const;
  const org = db.select({ name: orgs.name, language: orgs.language }).from(orgs).where(eq(orgs.id, message.orgId)).get();
  const shipment = db.select().from(shipments).where(eq(shipments.id, message.shipmentId)).get();
  if (!org || !shipment) return { problem: 'The shipment no longer exists, so the e-mail was not sent.' } as const;
  const kind = message.kind as EmailKind;
  const customer = db
    .select({ name: shipmentParties.name })
    .from(shipmentParties)
    .where(and(eq(shipmentParties.shipmentId, shipment.id), eq(shipmentParties.type, kind === 'return_label' ? 'sender' : 'receiver')))
    .get();
  const order = shipment.orderId ? db.select({ orderNumber: orders.orderNumber }).from(orders).where(eq(orders.id, shipment.orderId)).get() : undefined;
  const carrierName = shipment.carrierId
    ? (db.select({ name: carriersName.name }).from(carriersName).where(eq(carriersName.id, shipment.carrierId)).get()?.name ?? '')
    : '';
  const language: EmailLanguage = org.language === 'da' ? 'da' : 'en';
  const template = effectiveTemplates(settings.templates)[kind][language];
  const values = {
    receiverName: customer?.name ?? '',
    orderNumber: order?.orderNumber ?? shipment.reference,
    reference: shipment.reference,
    carrierName,
    trackingNumber: shipment.trackingNumber ?? '',
    trackingUrl: shipment.trackingUrl ?? '',
    organizationName: org.name,
  };
  const attachments =
    kind === 'return_label'
      ? db
          .select({ content: documents.content, format: documents.format })
          .from(documents)
          .where(and(eq(documents.shipmentId, shipment.id), eq(documents.documentType, 'label'), eq(documents.format, 'pdf')))
          .orderBy(asc(documents.createdAt), asc(documents.id))
          .all()
          .map((doc, index, all) => ({
            filename: `return-label-${shipment.reference}${all.length > 1 ? `-${index + 1}` : ''}.pdf`.replace(/[^\w.-]+/g, '-'),
            content: Buffer.from(doc.content),
            contentType: 'application/pdf',
          }))
      : [];
  if (kind === 'return_label' && attachments.length === 0) {
    return { problem: 'The return has no PDF label to attach (the carrier gave another format), so the e-mail was not sent.' } as const;
  }
  return {
    settings,
    email: { to: message.toAddress, subject: renderTemplate(template.subject, values), text: renderTemplate(template.text, values), attachments },
  } as const;
}

function finish(
  app: AppContext,
  message: MessageRow,
  change: Partial<MessageRow>,
  activity: { action: 'email_sent' | 'email_failed'; text: string },
  error?: string,
) {
  const now = app.now();
  inWriteTransaction(app.db, (tx) => {
    tx.update(emailMessages)
      .set({ ...change, updatedAt: now.toISOString() })
      .where(eq(emailMessages.id, message.id))
      .run();
    recordActivity(tx, now, message.shipmentId, activity.action, activity.text);
    if (error) recordError(tx, now, message.shipmentId, 'EMAIL_FAILED', error);
  });
}

/** One attempt of one claimed message. */
async function attempt(app: AppContext, message: MessageRow, timeouts?: SmtpTimeouts): Promise<void> {
  const what = `The ${kindWords[message.kind as EmailKind] ?? 'e-mail'} to ${message.toAddress}`;
  const composed = compose(app, message);
  if ('problem' in composed) {
    finish(
      app,
      message,
      { status: 'failed', nextAttemptAt: null, lastError: composed.problem },
      { action: 'email_failed', text: `${what} was not sent: ${composed.problem}` },
      `${what}: ${composed.problem}`,
    );
    return;
  }
  const outcome = await sendEmail(smtpConfigOf(app, composed.settings), { ...composed.email, messageId: message.messageId ?? undefined }, timeouts);
  if (outcome.ok) {
    finish(
      app,
      message,
      { status: 'sent', nextAttemptAt: null, lastError: null, sentAt: app.now().toISOString() },
      { action: 'email_sent', text: `${what} was sent` },
    );
    return;
  }
  const last = !outcome.temporary || message.attempts >= EMAIL_MAX_ATTEMPTS;
  if (last) {
    const text = `${what} could not be sent after ${message.attempts} attempt${message.attempts === 1 ? '' : 's'}: ${outcome.message} It will not be tried again.`;
    finish(app, message, { status: 'failed', nextAttemptAt: null, lastError: outcome.message }, { action: 'email_failed', text }, text);
    return;
  }
  const next = new Date(app.now().getTime() + RETRY_DELAYS_MS[message.attempts - 1]!).toISOString();
  const text = `${what} could not be sent (attempt ${message.attempts} of ${EMAIL_MAX_ATTEMPTS}): ${outcome.message} Trying again at ${next}.`;
  finish(app, message, { status: 'queued', nextAttemptAt: next, lastError: outcome.message }, { action: 'email_failed', text }, text);
}

/**
 * Claims due messages (status `sending`, attempt counted, our own Message-ID fixed) in one short
 * transaction, then sends them one by one. Bounded per run.
 */
export async function sendDueEmails(app: AppContext, timeouts?: SmtpTimeouts): Promise<number> {
  const now = app.now().toISOString();
  const claimed = inWriteTransaction(app.db, (tx) => {
    const due = tx
      .select()
      .from(emailMessages)
      .where(and(eq(emailMessages.status, 'queued'), lte(emailMessages.nextAttemptAt, now)))
      .orderBy(asc(emailMessages.nextAttemptAt), asc(emailMessages.id))
      .limit(MESSAGES_PER_RUN)
      .all();
    if (!due.length) return [];
    const rows = due.map((row) => ({
      ...row,
      status: 'sending',
      attempts: row.attempts + 1,
      messageId: row.messageId ?? `<${row.id}@shipdesk.local>`,
      updatedAt: now,
    }));
    for (const row of rows) {
      tx.update(emailMessages)
        .set({ status: 'sending', attempts: row.attempts, messageId: row.messageId, updatedAt: now })
        .where(eq(emailMessages.id, row.id))
        .run();
    }
    return rows;
  });
  for (const message of claimed) await attempt(app, message, timeouts);
  return claimed.length;
}

/**
 * After a crash or a kill, a message left `sending` may or may not have reached the customer: it is
 * marked failed with a plain note on its shipment, never sent again blindly (never twice is the rule).
 */
export function settleInterruptedEmails(app: AppContext): number {
  const now = app.now();
  return inWriteTransaction(app.db, (tx) => {
    const stuck = tx.select().from(emailMessages).where(eq(emailMessages.status, 'sending')).all();
    if (!stuck.length) return 0;
    const note = 'Shipdesk stopped while this e-mail was being sent, so it may or may not have reached the customer. It is not sent again automatically.';
    tx.update(emailMessages)
      .set({ status: 'failed', nextAttemptAt: null, lastError: note, updatedAt: now.toISOString() })
      .where(
        inArray(
          emailMessages.id,
          stuck.map((row) => row.id),
        ),
      )
      .run();
    for (const row of stuck) {
      const text = `The ${kindWords[row.kind as EmailKind] ?? 'e-mail'} to ${row.toAddress}: ${note}`;
      recordActivity(tx, now, row.shipmentId, 'email_failed', text);
      recordError(tx, now, row.shipmentId, 'EMAIL_FAILED', text);
    }
    return stuck.length;
  });
}

/** The background sender, started with the server (serve.ts, electron/main.ts). */
export function start(app: AppContext, intervalMs = 5000): BackgroundTask {
  settleInterruptedEmails(app);
  return repeatInBackground('Customer e-mail run', intervalMs, () => sendDueEmails(app));
}
