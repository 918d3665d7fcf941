import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { onboardingStepIds, type Onboarding, type OnboardingStepId, type OnboardingUpdate } from '../../../src-shared/schemas/onboarding';
import { carriers, orderChannels, orgs, printers, senderAddresses, shipments, shippingRules, type OnboardingState } from '../../db/schema';
import { inWriteTransaction, type ReadDb } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { carrierAdapterFor } from '../../carriers/catalogue';
import { findOrgRow } from '../orgs/orgs';

const emptyState: OnboardingState = { skipped: [], closed: false };

function stateOf(db: ReadDb, orgId: string): OnboardingState {
  return findOrgRow(db, orgId).onboarding ?? emptyState;
}

/** Whether the org has one live row in a table with `org_id` and `deleted_at`. */
function hasLive(db: ReadDb, table: typeof senderAddresses | typeof orderChannels | typeof shippingRules | typeof printers, orgId: string): boolean {
  return !!db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.orgId, orgId), isNull(table.deletedAt)))
    .limit(1)
    .get();
}

/** The checklist as the data says it is: a step is done when what it asks for exists. */
export function readOnboarding(db: ReadDb, orgId: string): Onboarding {
  const state = stateOf(db, orgId);
  const passed = new Set(state.carrierTestsPassed ?? []);
  const liveCarriers = db
    .select({ id: carriers.id, name: carriers.name, slug: carriers.carrierSlug })
    .from(carriers)
    .where(and(eq(carriers.orgId, orgId), isNull(carriers.deletedAt)))
    .all();
  // The local carrier books here and needs no test; a real one is ready once its test has passed.
  const needsTest = (carrier: { id: string; slug: string }) => {
    const adapter = carrierAdapterFor(carrier.slug);
    return (adapter ? adapter.remote !== undefined : true) && !passed.has(carrier.id);
  };
  const firstShipment = !!db
    .select({ id: shipments.id })
    .from(shipments)
    .where(and(eq(shipments.orgId, orgId), isNotNull(shipments.trackingNumber)))
    .limit(1)
    .get();
  const done: Record<OnboardingStepId, boolean> = {
    sender_address: hasLive(db, senderAddresses, orgId),
    carrier: liveCarriers.some((carrier) => !needsTest(carrier)),
    order_channel: hasLive(db, orderChannels, orgId),
    shipping_rule: hasLive(db, shippingRules, orgId),
    printer: hasLive(db, printers, orgId),
    first_shipment: firstShipment,
  };
  const steps = onboardingStepIds.map((id) => ({ id, done: done[id], skipped: !done[id] && state.skipped.includes(id) }));
  return {
    steps,
    complete: steps.every((step) => step.done || step.skipped),
    closed: state.closed,
    carriersToTest: liveCarriers.filter(needsTest).map(({ id, name }) => ({ id, name })),
  };
}

export function getOnboarding(app: AppContext, orgId: string): Onboarding {
  return readOnboarding(app.db, orgId);
}

export function updateOnboarding(app: AppContext, orgId: string, change: OnboardingUpdate): Onboarding {
  return inWriteTransaction(app.db, (tx) => {
    const state = stateOf(tx, orgId);
    const skipped = new Set(state.skipped);
    if (change.skip) skipped.add(change.skip);
    if (change.unskip) skipped.delete(change.unskip);
    const next: OnboardingState = { ...state, skipped: onboardingStepIds.filter((id) => skipped.has(id)), closed: change.closed ?? state.closed };
    tx.update(orgs).set({ onboarding: next, updatedAt: app.now().toISOString() }).where(eq(orgs.id, orgId)).run();
    return readOnboarding(tx, orgId);
  });
}

/** A passed connection test of a saved carrier makes the checklist's carrier step done (issue 20). */
export function noteCarrierTestPassed(app: AppContext, orgId: string, carrierId: string): void {
  inWriteTransaction(app.db, (tx) => {
    const state = stateOf(tx, orgId);
    const passed = state.carrierTestsPassed ?? [];
    if (passed.includes(carrierId)) return;
    // A handful of carriers per org (the plan limits them); keep the list from growing without end anyway.
    const next: OnboardingState = { ...state, carrierTestsPassed: [...passed, carrierId].slice(-50) };
    tx.update(orgs).set({ onboarding: next }).where(eq(orgs.id, orgId)).run();
  });
}
