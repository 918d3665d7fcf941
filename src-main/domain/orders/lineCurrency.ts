import { eq } from 'drizzle-orm';
import { orgs } from '../../db/schema';
import type { ReadDb } from '../../db/tx';

/**
 * The currency of an order line (issue 20): its own, else the order's, else the organization's, so
 * a price is never shown, shipped or printed on customs papers without one. Applied when a line is
 * written (create, PATCH, import) and again when one is read, for lines stored before the rule.
 */
export function lineCurrency(line: string | null | undefined, order: string | null | undefined, org: string): string {
  return line || order || org;
}

export function orgCurrency(db: ReadDb, orgId: string): string {
  return db.select({ currency: orgs.currency }).from(orgs).where(eq(orgs.id, orgId)).get()?.currency ?? 'DKK';
}
