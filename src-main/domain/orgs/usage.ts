import { and, eq, sql } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { AddOnType, LimitName, Usage } from '../../../src-shared/schemas/org';
import { addOns, shipmentUsage, type orgs } from '../../db/schema';
import { inWriteTransaction, type ReadDb, type WriteTx } from '../../db/tx';
import type { Db } from '../../db/types';
import { prepared } from '../../db/prepared';
import type { AppContext } from '../../app/kernel/context';
import { findOrgRow } from './orgs';
import { countUsed, effectiveLimit, largerPlanHint, planDefinitions } from './plans';
import type { Plan } from '../../../src-shared/schemas/org';

type OrgRow = typeof orgs.$inferSelect;

/** The calendar month (UTC) containing `now`: from its first instant to the next month's. */
export function billingPeriod(now: Date): { key: string; start: string; end: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { key: start.toISOString().slice(0, 7), start: start.toISOString(), end: end.toISOString() };
}

const createdInPeriod = (root: Db) =>
  root
    .select({ created: shipmentUsage.created })
    .from(shipmentUsage)
    .where(and(eq(shipmentUsage.orgId, sql.placeholder('orgId')), eq(shipmentUsage.period, sql.placeholder('period'))))
    .prepare();

/** Adds `created` to the month's count, adding its row the first time. */
const addCreated = (root: Db) =>
  root.$client.prepare(
    'INSERT INTO shipment_usage (org_id, period, created) VALUES (?, ?, ?) ON CONFLICT (org_id, period) DO UPDATE SET created = created + excluded.created',
  );

export function shipmentsCreatedIn(db: ReadDb, orgId: string, periodKey: string): number {
  return prepared(db, 'usage.createdInPeriod', createdInPeriod).get({ orgId, period: periodKey })?.created ?? 0;
}

/**
 * Counts `n` new shipments against the month, inside the creating transaction. Past the included
 * number the create is refused unless the organization allows overage (decisions §11). `org` is
 * the organization's row as the caller read it in this transaction.
 */
export function countShipmentsCreated(tx: WriteTx, org: OrgRow, now: Date, n = 1): void {
  const plan = planDefinitions[org.plan as Plan];
  const period = billingPeriod(now);
  // The count is read only when a limit can refuse: not for an unlimited plan, nor with overage allowed.
  const limited = plan.includedShipments >= 0 && !org.overageEnabled;
  const used = limited ? shipmentsCreatedIn(tx, org.id, period.key) : 0;
  if (limited && used + n > plan.includedShipments) {
    const free = Math.max(0, plan.includedShipments - used);
    const asked = n === 1 ? 'a new shipment' : `${n} new shipments`;
    throw new ApiError(
      'PLAN_LIMITS_EXCEEDED',
      `This needs ${asked} but only ${free} more fit in this month's ${org.plan} plan (${used} of ${plan.includedShipments} used); nothing was created. ` +
        `Allow shipments beyond the plan (overageEnabled, under Settings → Organization) or ${largerPlanHint(org.id, org.plan as Plan)}`,
    );
  }
  prepared(tx, 'usage.addCreated', addCreated).run(org.id, period.key, n);
}

const limitNames: LimitName[] = ['teamMembers', 'carriers', 'orderChannels', 'shippingRules', 'senderAddresses', 'apiTokens'];

export function getUsage(app: AppContext, orgId: string): Usage {
  const now = app.now();
  const org = findOrgRow(app.db, orgId);
  const plan = planDefinitions[org.plan as Plan];
  const period = billingPeriod(now);
  const used = shipmentsCreatedIn(app.db, orgId, period.key);
  const overage = org.overageEnabled && plan.includedShipments >= 0 ? Math.max(0, used - plan.includedShipments) : 0;
  const nowIso = now.toISOString();
  const limits = Object.fromEntries(
    limitNames.map((name) => [name, { used: countUsed(app.db, orgId, name, nowIso), limit: effectiveLimit(app.db, orgId, name) }]),
  ) as Usage['limits'];
  const addOnList = addOnsOf(app.db, orgId);
  return {
    currentPeriod: { start: period.start, end: period.end },
    shipments: { used, included: plan.includedShipments, overage, overageCharges: overage * plan.overagePrice },
    limits,
    addOns: addOnList,
  };
}

function addOnsOf(db: ReadDb, orgId: string): Usage['addOns'] {
  return db
    .select()
    .from(addOns)
    .where(eq(addOns.orgId, orgId))
    .all()
    .map((row) => ({ type: row.type, quantity: row.quantity, unitPrice: row.unitPrice, totalPrice: row.quantity * row.unitPrice }));
}

/**
 * `shipdesk org set-add-on`: the organization has `quantity` of the add-on at `unitPrice` minor units
 * each, listed in its usage with the total; 0 takes it away. Places already used stay used: a lower
 * carrier limit refuses the next carrier and deletes none.
 */
export function setAddOn(app: AppContext, orgId: string, type: AddOnType, quantity: number, unitPrice: number): { orgId: string; addOns: Usage['addOns'] } {
  return inWriteTransaction(app.db, (tx) => {
    findOrgRow(tx, orgId);
    tx.delete(addOns)
      .where(and(eq(addOns.orgId, orgId), eq(addOns.type, type)))
      .run();
    if (quantity > 0) tx.insert(addOns).values({ orgId, type, quantity, unitPrice }).run();
    return { orgId, addOns: addOnsOf(tx, orgId) };
  });
}
