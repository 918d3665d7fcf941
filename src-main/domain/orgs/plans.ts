import { and, count, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { LimitName } from '../../../src-shared/schemas/org';
import type { Plan } from '../../../src-shared/schemas/org';
import { addOns, apiTokens, carriers, orderChannels, orgMembers, orgs, senderAddresses, shippingRules } from '../../db/schema';
import type { ReadDb } from '../../db/tx';

interface PlanDefinition {
  limits: Record<LimitName, number>;
  includedShipments: number;
  /** Minor units (øre/cents) per shipment beyond the included number. */
  overagePrice: number;
}

/** Decisions §11. -1 means unlimited. */
export const planDefinitions: Record<Plan, PlanDefinition> = {
  starter: {
    limits: { teamMembers: 3, carriers: 3, orderChannels: 2, shippingRules: 25, senderAddresses: 5, apiTokens: 10 },
    includedShipments: 500,
    overagePrice: 150,
  },
  pro: {
    limits: { teamMembers: 10, carriers: 10, orderChannels: 5, shippingRules: 100, senderAddresses: 20, apiTokens: 50 },
    includedShipments: 5000,
    overagePrice: 100,
  },
  unlimited: {
    limits: { teamMembers: -1, carriers: -1, orderChannels: -1, shippingRules: -1, senderAddresses: -1, apiTokens: -1 },
    includedShipments: -1,
    overagePrice: 0,
  },
};

const limitLabels: Record<LimitName, string> = {
  teamMembers: 'team members',
  carriers: 'carriers',
  orderChannels: 'order channels',
  shippingRules: 'shipping rules',
  senderAddresses: 'sender addresses',
  apiTokens: 'API tokens',
};

/** The next plan up and the command that moves to it (plans change only through the CLI, decisions §11). */
export function largerPlanHint(orgId: string, plan: Plan): string {
  const next: Plan = plan === 'starter' ? 'pro' : 'unlimited';
  return `move to a larger plan with \`shipdesk org set-plan ${orgId} ${next}\``;
}

export function orgPlan(db: ReadDb, orgId: string): Plan {
  const row = db.select({ plan: orgs.plan }).from(orgs).where(eq(orgs.id, orgId)).get();
  return (row?.plan ?? 'starter') as Plan;
}

/** Live records only: a revoked or expired token, or a deleted carrier, frees its place. */
export function countUsed(db: ReadDb, orgId: string, limit: LimitName, nowIso: string): number {
  const one = (query: { get(): { n: number } | undefined }) => query.get()?.n ?? 0;
  switch (limit) {
    case 'teamMembers':
      return one(db.select({ n: count() }).from(orgMembers).where(eq(orgMembers.orgId, orgId)));
    case 'carriers':
      return one(
        db
          .select({ n: count() })
          .from(carriers)
          .where(and(eq(carriers.orgId, orgId), isNull(carriers.deletedAt))),
      );
    case 'orderChannels':
      return one(
        db
          .select({ n: count() })
          .from(orderChannels)
          .where(and(eq(orderChannels.orgId, orgId), isNull(orderChannels.deletedAt))),
      );
    case 'shippingRules':
      return one(
        db
          .select({ n: count() })
          .from(shippingRules)
          .where(and(eq(shippingRules.orgId, orgId), isNull(shippingRules.deletedAt))),
      );
    case 'senderAddresses':
      return one(
        db
          .select({ n: count() })
          .from(senderAddresses)
          .where(and(eq(senderAddresses.orgId, orgId), isNull(senderAddresses.deletedAt))),
      );
    case 'apiTokens':
      return one(
        db
          .select({ n: count() })
          .from(apiTokens)
          .where(and(eq(apiTokens.orgId, orgId), isNull(apiTokens.revokedAt), or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, nowIso)))),
      );
  }
}

/** The plan's limit plus add-ons (`extra_carrier` raises the carrier limit by its quantity). */
export function effectiveLimit(db: ReadDb, orgId: string, limit: LimitName): number {
  const base = planDefinitions[orgPlan(db, orgId)].limits[limit];
  if (base < 0 || limit !== 'carriers') return base;
  const extra = db
    .select({ n: sql<number>`coalesce(sum(${addOns.quantity}), 0)` })
    .from(addOns)
    .where(and(eq(addOns.orgId, orgId), eq(addOns.type, 'extra_carrier')))
    .get();
  return base + (extra?.n ?? 0);
}

/** Call inside the creating transaction, so two creates cannot both take the last place. */
export function assertWithinLimit(db: ReadDb, orgId: string, limit: LimitName, nowIso: string): void {
  const max = effectiveLimit(db, orgId, limit);
  if (max < 0) return;
  const used = countUsed(db, orgId, limit, nowIso);
  if (used >= max) {
    const plan = orgPlan(db, orgId);
    const addOn = limit === 'carriers' ? `, add carriers with \`shipdesk org set-add-on ${orgId} extra_carrier <quantity>\`` : '';
    throw new ApiError(
      'RESOURCE_LIMIT_REACHED',
      `The ${plan} plan allows ${max} ${limitLabels[limit]} (limit: ${limit}); delete one${addOn} or ${largerPlanHint(orgId, plan)}`,
    );
  }
}
