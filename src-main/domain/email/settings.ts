import { eq } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { EmailSettings, EmailSettingsInput, EmailTemplatesEdit, EmailTestResult } from '../../../src-shared/schemas/emailSettings';
import { emailSettings } from '../../db/schema';
import { inWriteTransaction, type ReadDb } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { isSealed, maskSecret, seal, unseal } from '../secrets';
import { findOrgRow } from '../orgs/orgs';
import { effectiveTemplates, emailKinds, emailLanguages } from '../../../src-shared/emailTemplates';
import { sendEmail, type SmtpConfig, type SmtpTimeouts } from './smtp';

type Row = typeof emailSettings.$inferSelect;

const MASK_PREFIX = '••••';

function toSettings(app: AppContext, row: Row): EmailSettings {
  let password: string | null = null;
  if (row.passwordSealed && isSealed(row.passwordSealed)) {
    try {
      password = maskSecret(unseal(app.keys.sealKey, row.passwordSealed));
    } catch {
      // Sealed under another installation's key: shown as the bare mask, to be typed again.
      password = MASK_PREFIX;
    }
  }
  return {
    host: row.host,
    port: row.port,
    secure: row.secure,
    username: row.username,
    password,
    fromAddress: row.fromAddress,
    templates: effectiveTemplates(row.templates),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function findEmailSettingsRow(db: ReadDb, orgId: string): Row | undefined {
  return db.select().from(emailSettings).where(eq(emailSettings.orgId, orgId)).get();
}

/** `null` when the organization has no e-mail settings (a read of "nothing configured", not an error). */
export function getEmailSettings(app: AppContext, orgId: string): EmailSettings | null {
  findOrgRow(app.db, orgId);
  const row = findEmailSettingsRow(app.db, orgId);
  return row ? toSettings(app, row) : null;
}

/**
 * The sealed password to store: left out keeps the stored one, as does the mask a read showed;
 * null removes it; another masked value is refused (it cannot stand for a password).
 */
function passwordToStore(app: AppContext, input: EmailSettingsInput, before: Row | undefined): string | null {
  const stored = before?.passwordSealed ?? null;
  if (input.password === undefined) return stored;
  if (input.password === null) return null;
  if (input.password.startsWith(MASK_PREFIX)) {
    let opened: string | null = null;
    try {
      opened = stored ? unseal(app.keys.sealKey, stored) : null;
    } catch {
      opened = null;
    }
    if (opened !== null && input.password === maskSecret(opened)) return stored;
    throw new ApiError('VALIDATION_FAILED', 'password is a masked value; type the password itself', {
      details: [{ path: 'body.password', message: 'Masked value does not match the stored password: type the password itself' }],
    });
  }
  return seal(app.keys.sealKey, input.password);
}

/** Only the organization's own templates are stored; a default is never copied in, so better defaults reach everyone. */
function mergeTemplates(stored: Record<string, unknown>, edit: EmailTemplatesEdit | undefined): Record<string, unknown> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const kind of emailKinds) {
    const before = stored[kind];
    out[kind] = typeof before === 'object' && before !== null ? { ...(before as Record<string, unknown>) } : {};
    for (const language of emailLanguages) {
      const change = edit?.[kind]?.[language];
      if (change === null) delete out[kind][language];
      else if (change !== undefined) out[kind][language] = change;
    }
  }
  return out;
}

export function putEmailSettings(app: AppContext, orgId: string, input: EmailSettingsInput): EmailSettings {
  return inWriteTransaction(app.db, (tx) => {
    findOrgRow(tx, orgId);
    const before = findEmailSettingsRow(tx, orgId);
    const now = app.now().toISOString();
    const values = {
      host: input.host,
      port: input.port,
      secure: input.secure,
      username: input.username ? input.username : null,
      passwordSealed: passwordToStore(app, input, before),
      fromAddress: input.fromAddress,
      templates: mergeTemplates(before?.templates ?? {}, input.templates),
      updatedAt: now,
    };
    if (before) tx.update(emailSettings).set(values).where(eq(emailSettings.orgId, orgId)).run();
    else
      tx.insert(emailSettings)
        .values({ orgId, ...values, createdAt: now })
        .run();
    return toSettings(app, findEmailSettingsRow(tx, orgId)!);
  });
}

export function deleteEmailSettings(app: AppContext, orgId: string): { message: string } {
  return inWriteTransaction(app.db, (tx) => {
    findOrgRow(tx, orgId);
    if (!findEmailSettingsRow(tx, orgId)) throw new ApiError('NOT_FOUND', 'This organization has no e-mail settings');
    tx.delete(emailSettings).where(eq(emailSettings.orgId, orgId)).run();
    return { message: 'E-mail settings removed: no customer e-mails will be sent' };
  });
}

/** The settings with the password opened, for a send only. */
export function smtpConfigOf(app: AppContext, row: Row): SmtpConfig {
  return {
    host: row.host,
    port: row.port,
    secure: row.secure,
    username: row.username,
    password: row.passwordSealed ? unseal(app.keys.sealKey, row.passwordSealed) : null,
    fromAddress: row.fromAddress,
  };
}

export async function sendTestEmail(app: AppContext, orgId: string, to: string, timeouts?: SmtpTimeouts): Promise<EmailTestResult> {
  const org = findOrgRow(app.db, orgId);
  const row = findEmailSettingsRow(app.db, orgId);
  if (!row) throw new ApiError('NOT_FOUND', 'Save the e-mail settings first, then send a test e-mail');
  const started = performance.now();
  const outcome = await sendEmail(
    smtpConfigOf(app, row),
    {
      to,
      subject: `Test e-mail from Shipdesk (${org.name})`,
      text: `This is a test e-mail from Shipdesk for ${org.name}.\n\nIf you can read it, customer e-mails will be sent through ${row.host}:${row.port}.`,
    },
    timeouts,
  );
  const durationMs = Math.round(performance.now() - started);
  if (outcome.ok) return { ok: true, message: `Test e-mail sent to ${to} through ${row.host}:${row.port}.`, durationMs };
  return { ok: false, message: outcome.message, durationMs };
}
