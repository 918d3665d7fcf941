import { and, eq, ne, sql } from 'drizzle-orm';
import { ApiError } from '../../../src-shared/errors';
import type { Organization, OrganizationUpdate, Plan } from '../../../src-shared/schemas/org';
import { orgMembers, orgs, users } from '../../db/schema';
import { newId } from '../../db/ids';
import { inWriteTransaction, type ReadDb } from '../../db/tx';
import type { Db } from '../../db/types';
import { prepared } from '../../db/prepared';
import type { AppContext } from '../../app/kernel/context';
import { hashPassword } from '../auth/passwords';
import { updateColumns } from '../../db/updateColumns';

type Row = typeof orgs.$inferSelect;

export function toOrganization(row: Row): Organization {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    currency: row.currency as Organization['currency'],
    vatNumber: row.vatNumber,
    eoriNumber: row.eoriNumber,
    billingEmail: row.billingEmail,
    companyName: row.companyName,
    addressLine1: row.addressLine1,
    addressLine2: row.addressLine2,
    city: row.city,
    postalCode: row.postalCode,
    country: row.country,
    overageEnabled: row.overageEnabled,
    plan: row.plan as Plan,
    returnInstructions: row.returnInstructions,
    language: row.language === 'da' ? 'da' : 'en',
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const orgById = (root: Db) =>
  root
    .select()
    .from(orgs)
    .where(eq(orgs.id, sql.placeholder('orgId')))
    .prepare();

export function findOrgRow(db: ReadDb, orgId: string): Row {
  const row = prepared(db, 'orgs.byId', orgById).get({ orgId });
  if (!row) throw new ApiError('ORG_NOT_FOUND', `Organization ${orgId} does not exist`);
  return row;
}

export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug || 'org';
}

function uniqueSlug(db: ReadDb, base: string): string {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!db.select({ id: orgs.id }).from(orgs).where(eq(orgs.slug, candidate)).get()) return candidate;
  }
}

export interface SetupInput {
  orgName: string;
  email: string;
  password: string;
  userName?: string;
  /** Refuse when any user exists: the public setup screen must not become a way in. */
  firstRunOnly?: boolean;
}

/** First run: an organization, its owner and nothing else, in one transaction. */
export async function createOrgWithOwner(app: AppContext, input: SetupInput): Promise<{ orgId: string; userId: string }> {
  const passwordHash = await hashPassword(input.password);
  const email = input.email.trim().toLowerCase();
  const now = app.now().toISOString();
  return inWriteTransaction(app.db, (tx) => {
    if (input.firstRunOnly && !needsSetup(tx)) {
      throw new ApiError('CONFLICT', 'Shipdesk is already set up on this computer; log in instead');
    }
    const existing = tx.select({ id: users.id }).from(users).where(eq(users.email, email)).get();
    if (existing) throw new ApiError('CONFLICT', `A user with email ${email} already exists`);
    const orgId = newId('org');
    const userId = newId('user');
    tx.insert(orgs)
      .values({ id: orgId, name: input.orgName, slug: uniqueSlug(tx, slugify(input.orgName)), createdAt: now, updatedAt: now })
      .run();
    tx.insert(users)
      .values({ id: userId, name: input.userName ?? email.split('@')[0] ?? email, email, passwordHash, createdAt: now, updatedAt: now })
      .run();
    tx.insert(orgMembers).values({ orgId, userId, role: 'owner', createdAt: now, updatedAt: now }).run();
    return { orgId, userId };
  });
}

export function needsSetup(db: ReadDb): boolean {
  return !db.select({ id: users.id }).from(users).limit(1).get();
}

export function getOrganization(app: AppContext, orgId: string): Organization {
  return toOrganization(findOrgRow(app.db, orgId));
}

export function updateOrganization(app: AppContext, orgId: string, input: OrganizationUpdate): Organization {
  return inWriteTransaction(app.db, (tx) => {
    const row = findOrgRow(tx, orgId);
    if (input.slug !== undefined) {
      const taken = tx
        .select({ id: orgs.id })
        .from(orgs)
        .where(and(eq(orgs.slug, input.slug), ne(orgs.id, orgId)))
        .get();
      if (taken) throw new ApiError('ORG_SLUG_EXISTS', `The slug "${input.slug}" is taken by another organization`);
    }
    const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<Row>;
    const updated: Row = { ...row, ...changes, updatedAt: app.now().toISOString() };
    tx.update(orgs).set(updateColumns(updated)).where(eq(orgs.id, orgId)).run();
    return toOrganization(updated);
  });
}

export function setPlan(app: AppContext, orgId: string, plan: Plan): Organization {
  return inWriteTransaction(app.db, (tx) => {
    const row = findOrgRow(tx, orgId);
    const updated: Row = { ...row, plan, updatedAt: app.now().toISOString() };
    tx.update(orgs).set({ plan, updatedAt: updated.updatedAt }).where(eq(orgs.id, orgId)).run();
    return toOrganization(updated);
  });
}
