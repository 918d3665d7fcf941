import { and, asc, count, desc, eq, isNotNull, isNull, lte, min } from 'drizzle-orm';
import type { PageQuery } from '../../../src-shared/schemas/common';
import type { WebhookDelivery } from '../../../src-shared/schemas/webhook';
import { outboxEvents, webhookDeliveries, webhooks } from '../../db/schema';
import { newId } from '../../db/ids';
import { insertRows } from '../../db/prepared';
import { inIds } from '../../db/inIds';
import { durable, inWriteTransaction } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { paginate } from '../pagination';
import { findWebhookRow, signPayload, webhookSigningSecret } from './webhooks';
import { repeatInBackground, type BackgroundTask } from '../../app/kernel/backgroundTask';

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Waits before attempts 2–6 (decisions §10); after the sixth failure nothing more is scheduled. */
export const RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000, 6 * 60 * 60_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const DELIVERY_TIMEOUT_MS = 10_000;
/**
 * A claimed attempt is pushed this far ahead before the request goes out, so a crash mid-request
 * leaves it due again after a restart instead of lost (longer than the timeout, so never doubled).
 */
const CLAIM_LEASE_MS = 60_000;
const EVENTS_PER_RUN = 200;
const DELIVERIES_PER_RUN = 100;
/** Webhooks served side by side in one round. */
const WEBHOOKS_PER_ROUND = 100;

export function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    event: row.eventType,
    statusCode: row.statusCode,
    success: row.success,
    attempt: row.attempt,
    durationMs: row.durationMs,
    error: row.error,
    createdAt: row.createdAt,
  };
}

const later = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();

/**
 * Turns committed outbox events into queued deliveries, oldest first, up to EVENTS_PER_RUN in one
 * transaction: a delivery row (attempt 1, due now) for each active webhook of the org subscribed to
 * the type that existed when the event happened. Every event is marked dispatched, with or without
 * webhooks, so a busy day costs one short transaction per batch, not one per event (the payloads
 * are not read here: the attempt reads its event).
 */
export function dispatchOutbox(app: AppContext): number {
  // Mostly there is nothing: look before taking the write lock every 2 s.
  const waiting = app.db.select({ id: outboxEvents.id }).from(outboxEvents).where(isNull(outboxEvents.dispatchedAt)).limit(1).get();
  if (!waiting) return 0;
  return inWriteTransaction(app.db, (tx) => {
    const pending = tx
      .select({ id: outboxEvents.id, orgId: outboxEvents.orgId, type: outboxEvents.type, createdAt: outboxEvents.createdAt })
      .from(outboxEvents)
      .where(isNull(outboxEvents.dispatchedAt))
      .orderBy(asc(outboxEvents.createdAt), asc(outboxEvents.id))
      .limit(EVENTS_PER_RUN)
      .all();
    if (!pending.length) return 0;
    const now = app.now().toISOString();
    const hooksOf = new Map<string, { id: string; events: string[]; createdAt: string }[]>();
    const deliveries: (typeof webhookDeliveries.$inferInsert)[] = [];
    for (const event of pending) {
      let hooks = hooksOf.get(event.orgId);
      if (!hooks) {
        hooks = tx
          .select({ id: webhooks.id, events: webhooks.events, createdAt: webhooks.createdAt })
          .from(webhooks)
          .where(and(eq(webhooks.orgId, event.orgId), eq(webhooks.isActive, true)))
          .orderBy(asc(webhooks.createdAt), asc(webhooks.id))
          .all();
        hooksOf.set(event.orgId, hooks);
      }
      for (const webhook of hooks) {
        // A webhook made after the event did not ask for it (it would get a backlog of old events).
        if (!webhook.events.includes(event.type) || webhook.createdAt > event.createdAt) continue;
        deliveries.push({
          id: newId('delivery'),
          webhookId: webhook.id,
          eventId: event.id,
          eventType: event.type,
          success: false,
          attempt: 1,
          nextAttemptAt: now,
          createdAt: now,
        });
      }
    }
    insertRows(tx, webhookDeliveries, deliveries);
    // The ids as one JSON parameter: one statement whatever the batch's size (with `inArray`, each
    // size from 1 to EVENTS_PER_RUN compiled and kept a statement of its own, some 4 MB in all).
    tx.update(outboxEvents)
      .set({ dispatchedAt: now })
      .where(
        inIds(
          outboxEvents.id,
          pending.map((event) => event.id),
        ),
      )
      .run();
    return pending.length;
  });
}

interface AttemptResult {
  statusCode: number | null;
  success: boolean;
  durationMs: number;
  error: string | null;
}

/** One POST of the raw envelope, signed; never throws. The secret is used for the header only. */
async function postEnvelope(app: AppContext, url: string, secret: string, envelope: { id: string; type: string }): Promise<AttemptResult> {
  const rawBody = JSON.stringify(envelope);
  const timestamp = Math.floor(app.now().getTime() / 1000);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'Shipdesk-Webhooks',
        'Shipdesk-Event-Id': envelope.id,
        'Shipdesk-Event-Type': envelope.type,
        'Shipdesk-Signature': signPayload(secret, timestamp, rawBody),
      },
      body: rawBody,
      // A redirect is not a delivery: the signed body is not forwarded to wherever it points.
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await response.body?.cancel().catch(() => undefined);
    const success = response.status >= 200 && response.status < 300;
    return { statusCode: response.status, success, durationMs: elapsed(), error: success ? null : `Answered HTTP ${response.status}` };
  } catch (error) {
    return { statusCode: null, success: false, durationMs: elapsed(), error: describeFailure(error) };
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return `No answer within ${DELIVERY_TIMEOUT_MS / 1000} s`;
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  const detail = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  return `Request failed: ${detail}`.slice(0, 500);
}

/**
 * Makes the attempt a due row asks for. A never-tried row (durationMs null) takes the result itself;
 * a failed row stays as it was and the retry is written as a new row with attempt + 1.
 */
async function attemptDelivery(app: AppContext, due: DeliveryRow): Promise<boolean> {
  const claimed = inWriteTransaction(app.db, (tx) => {
    const row = tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, due.id)).get();
    if (!row || row.nextAttemptAt !== due.nextAttemptAt) return null; // taken by another run, or gone
    const webhook = tx.select().from(webhooks).where(eq(webhooks.id, row.webhookId)).get();
    const event = tx.select({ payload: outboxEvents.payload }).from(outboxEvents).where(eq(outboxEvents.id, row.eventId)).get();
    if (!webhook?.isActive || !event) {
      // Switched off (or the event is gone) since it was queued: stop here rather than send it days later.
      const error = row.durationMs === null ? { error: webhook?.isActive === false ? 'Not sent: the webhook is inactive' : 'Not sent: the event is gone' } : {};
      tx.update(webhookDeliveries)
        .set({ nextAttemptAt: null, ...error })
        .where(eq(webhookDeliveries.id, row.id))
        .run();
      return null;
    }
    tx.update(webhookDeliveries)
      .set({ nextAttemptAt: later(app.now(), CLAIM_LEASE_MS) })
      .where(eq(webhookDeliveries.id, row.id))
      .run();
    return { row, url: webhook.url, secret: webhookSigningSecret(app, webhook.id), envelope: event.payload as { id: string; type: string } };
  });
  if (!claimed) return true;
  // The event and the claim are on disk before anyone outside hears of them.
  await durable(app.db);
  const { row, url, secret, envelope } = claimed;
  const result = await postEnvelope(app, url, secret, envelope);
  const firstTry = row.durationMs === null;
  const attempt = firstTry ? row.attempt : row.attempt + 1;
  const now = app.now();
  const retryDelay = RETRY_DELAYS_MS[attempt - 1];
  const nextAttemptAt = !result.success && retryDelay !== undefined ? later(now, retryDelay) : null;
  inWriteTransaction(app.db, (tx) => {
    if (firstTry) {
      tx.update(webhookDeliveries)
        .set({ ...result, nextAttemptAt })
        .where(eq(webhookDeliveries.id, row.id))
        .run();
      return;
    }
    tx.update(webhookDeliveries).set({ nextAttemptAt: null }).where(eq(webhookDeliveries.id, row.id)).run();
    tx.insert(webhookDeliveries)
      .values({
        id: newId('delivery'),
        webhookId: row.webhookId,
        eventId: row.eventId,
        eventType: row.eventType,
        attempt,
        ...result,
        nextAttemptAt,
        createdAt: now.toISOString(),
      })
      .run();
  });
  return result.success;
}

/** A round's outcome: attempts made, and whether a webhook may have more due (a full page, all delivered). */
interface Round {
  attempted: number;
  more: boolean;
}

/**
 * One round: each webhook with deliveries due sends them in order, up to a page, different
 * webhooks side by side. A webhook's turn ends at its first failed attempt, and `failed` keeps it
 * out of the run's later rounds: its other due deliveries wait for the next run. Runs never
 * overlap, so a receiver that does not answer (10 s each) would otherwise hold every other
 * webhook back for as many timeouts as it has events waiting (a burst of 100: 16 minutes), and its
 * backlog would fill the page the others' deliveries are read from.
 */
async function sendDueRound(app: AppContext, failed: Set<string>): Promise<Round> {
  const due = and(isNotNull(webhookDeliveries.nextAttemptAt), lte(webhookDeliveries.nextAttemptAt, app.now().toISOString()));
  const oldestDue = min(webhookDeliveries.nextAttemptAt);
  const hooks = app.db
    .select({ webhookId: webhookDeliveries.webhookId, oldestDue })
    .from(webhookDeliveries)
    .where(due)
    .groupBy(webhookDeliveries.webhookId)
    .orderBy(asc(oldestDue))
    .limit(WEBHOOKS_PER_ROUND)
    .all()
    .filter((hook) => !failed.has(hook.webhookId));
  const round: Round = { attempted: 0, more: false };
  await Promise.all(
    hooks.map(async ({ webhookId }) => {
      const rows = app.db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.webhookId, webhookId), due))
        .orderBy(asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id))
        .limit(DELIVERIES_PER_RUN)
        .all();
      for (const row of rows) {
        round.attempted++;
        if (!(await attemptDelivery(app, row))) {
          failed.add(webhookId);
          return;
        }
      }
      if (rows.length === DELIVERIES_PER_RUN) round.more = true;
    }),
  );
  return round;
}

/** Sends what is due now (one round); answers how many attempts it made. */
export async function sendDueDeliveries(app: AppContext): Promise<number> {
  return (await sendDueRound(app, new Set())).attempted;
}

/** Rounds of one run while a burst is worked off; what is left waits for the next run. */
const MAX_ROUNDS_PER_RUN = 20;

/**
 * One pass of the worker: queue new events, then send what is due. A burst (a CSV import, a batch
 * send) is worked off round after round in the same run, instead of 200 events every 2 s; requests
 * are served while each round's deliveries are out. Tests call it directly.
 */
export async function runOnce(app: AppContext): Promise<void> {
  const failed = new Set<string>();
  for (let round = 0; round < MAX_ROUNDS_PER_RUN; round++) {
    const queued = dispatchOutbox(app);
    const { more } = await sendDueRound(app, failed);
    if (queued < EVENTS_PER_RUN && !more) return;
  }
}

/** Runs the worker every `intervalMs` in the background; runs never overlap and the timer keeps no process alive. */
export function start(app: AppContext, intervalMs = 2000): BackgroundTask {
  return repeatInBackground('Webhook delivery run', intervalMs, () => runOnce(app));
}

/** The delivery records of one webhook of the org, newest first; 404 for another org's webhook. */
export function listDeliveries(app: AppContext, orgId: string, webhookId: string, query: PageQuery) {
  findWebhookRow(app.db, orgId, webhookId);
  const ofWebhook = eq(webhookDeliveries.webhookId, webhookId);
  const total = app.db.select({ n: count() }).from(webhookDeliveries).where(ofWebhook).get()?.n ?? 0;
  return paginate(query, total, (limit, offset) =>
    app.db
      .select()
      .from(webhookDeliveries)
      .where(ofWebhook)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(limit)
      .offset(offset)
      .all()
      .map(toDelivery),
  );
}

/**
 * `POST …/test`: a `ping` envelope sent now, whatever the webhook subscribes to and even when it is
 * inactive. It is one attempt, not retried: whoever pressed the button sees the answer.
 */
export async function sendTestPing(app: AppContext, orgId: string, webhookId: string): Promise<WebhookDelivery> {
  const webhook = findWebhookRow(app.db, orgId, webhookId);
  const createdAt = app.now().toISOString();
  const envelope = { id: newId('event'), type: 'ping', createdAt, orgId, data: { webhookId: webhook.id, name: webhook.name } };
  const result = await postEnvelope(app, webhook.url, webhookSigningSecret(app, webhook.id), envelope);
  const row: DeliveryRow = {
    id: newId('delivery'),
    webhookId: webhook.id,
    eventId: envelope.id,
    eventType: envelope.type,
    attempt: 1,
    ...result,
    nextAttemptAt: null,
    createdAt,
  };
  app.db.insert(webhookDeliveries).values(row).run();
  return toDelivery(row);
}
