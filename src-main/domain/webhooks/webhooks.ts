import { createHmac, randomBytes } from 'node:crypto';
import { and, count, desc, eq } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { PageQuery } from '../../../src-shared/schemas/common';
import { WEBHOOK_SECRET_PREFIX, type Webhook, type WebhookInput, type WebhookUpdate, type WebhookWithSecret } from '../../../src-shared/schemas/webhook';
import { webhooks } from '../../db/schema';
import { newId } from '../../db/ids';
import { inWriteTransaction, type ReadDb } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { seal, unseal } from '../secrets';
import { paginate } from '../pagination';
import { updateColumns } from '../../db/updateColumns';

type Row = typeof webhooks.$inferSelect;

export function toWebhook(row: Row): Webhook {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    events: row.events,
    isActive: row.isActive,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function withSecret(app: AppContext, row: Row): WebhookWithSecret {
  return { ...toWebhook(row), secret: unseal(app.keys.sealKey, row.secretSealed) };
}

/** `whsec_` + 43 url-safe characters (256 random bits). */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64url');
}

const ofOrg = (orgId: string) => eq(webhooks.orgId, orgId);

/** The row, or 404 ORG_WEBHOOK_NOT_FOUND (also for another organization's webhook). */
export function findWebhookRow(db: ReadDb, orgId: string, webhookId: string): Row {
  const row = db
    .select()
    .from(webhooks)
    .where(and(ofOrg(orgId), eq(webhooks.id, webhookId)))
    .get();
  if (!row) throw new ApiError('ORG_WEBHOOK_NOT_FOUND', `Webhook ${webhookId} does not exist in this organization`);
  return row;
}

export function createWebhook(app: AppContext, orgId: string, input: WebhookInput): WebhookWithSecret {
  const now = app.now().toISOString();
  const secret = generateWebhookSecret();
  const row: Row = {
    id: newId('webhook'),
    orgId,
    name: input.name,
    url: input.url,
    events: input.events,
    isActive: input.isActive,
    secretSealed: seal(app.keys.sealKey, secret),
    createdAt: now,
    updatedAt: now,
  };
  app.db.insert(webhooks).values(row).run();
  return { ...toWebhook(row), secret };
}

/** Lists never carry the secret (decisions §10). */
export function listWebhooks(app: AppContext, orgId: string, query: PageQuery) {
  const total = app.db.select({ n: count() }).from(webhooks).where(ofOrg(orgId)).get()?.n ?? 0;
  return paginate(query, total, (limit, offset) =>
    app.db.select().from(webhooks).where(ofOrg(orgId)).orderBy(desc(webhooks.createdAt), desc(webhooks.id)).limit(limit).offset(offset).all().map(toWebhook),
  );
}

export function getWebhook(app: AppContext, orgId: string, webhookId: string): WebhookWithSecret {
  return withSecret(app, findWebhookRow(app.db, orgId, webhookId));
}

export function updateWebhook(app: AppContext, orgId: string, webhookId: string, input: WebhookUpdate): WebhookWithSecret {
  return inWriteTransaction(app.db, (tx) => {
    const row = findWebhookRow(tx, orgId, webhookId);
    const updated: Row = {
      ...row,
      name: input.name ?? row.name,
      url: input.url ?? row.url,
      events: input.events ?? row.events,
      isActive: input.isActive ?? row.isActive,
      updatedAt: app.now().toISOString(),
    };
    tx.update(webhooks).set(updateColumns(updated)).where(eq(webhooks.id, webhookId)).run();
    return withSecret(app, updated);
  });
}

/** A hard delete: the delivery history goes with it (ON DELETE CASCADE). */
export function deleteWebhook(app: AppContext, orgId: string, webhookId: string): { message: string } {
  return inWriteTransaction(app.db, (tx) => {
    findWebhookRow(tx, orgId, webhookId);
    tx.delete(webhooks).where(eq(webhooks.id, webhookId)).run();
    return { message: `Webhook ${webhookId} deleted` };
  });
}

/** The plain signing secret, for the delivery worker only; it runs outside any one organization's call. */
export function webhookSigningSecret(app: AppContext, webhookId: string): string {
  const row = app.db.select({ secretSealed: webhooks.secretSealed }).from(webhooks).where(eq(webhooks.id, webhookId)).get();
  if (!row) throw new ApiError('ORG_WEBHOOK_NOT_FOUND', `Webhook ${webhookId} does not exist`);
  return unseal(app.keys.sealKey, row.secretSealed);
}

/**
 * The `Shipdesk-Signature` header value (decisions §10). The timestamp is signed with the body so
 * a captured delivery cannot be replayed later under a fresh timestamp.
 */
export function signPayload(secret: string, timestampSeconds: number, rawBody: string | Uint8Array): string {
  const v1 = createHmac('sha256', secret).update(`${timestampSeconds}.`).update(rawBody).digest('hex');
  return `t=${timestampSeconds},v1=${v1}`;
}
