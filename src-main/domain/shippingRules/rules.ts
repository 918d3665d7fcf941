/**
 * Shipping rules (interface §2.9, §4.5; decisions §6): which carrier, product and sender address a
 * shipment gets for a destination, weight and order value. Matching lives in match.ts.
 */
import { and, count, desc, eq, inArray, isNull, ne } from 'drizzle-orm';
import { ApiError, validationError } from '../../../src-shared/errors';
import type { Page, PageQuery } from '../../../src-shared/schemas/common';
import type { Condition, ShippingRule, ShippingRuleCreateInput, ShippingRuleExpanded, ShippingRuleUpdateInput } from '../../../src-shared/schemas/shippingRule';
import { carriers, printers, senderAddresses, shippingRules } from '../../db/schema';
import { newId } from '../../db/ids';
import { inWriteTransaction, type ReadDb, type WriteTx } from '../../db/tx';
import type { AppContext } from '../../app/kernel/context';
import { findCarrierRow, toCarrierBase } from '../carriers/carriers';
import { assertWithinLimit } from '../orgs/plans';
import { paginate } from '../pagination';
import { findSenderAddressRow, toSenderAddress } from '../senderAddresses/senderAddresses';
import { updateColumns } from '../../db/updateColumns';

export type ShippingRuleRow = typeof shippingRules.$inferSelect;

/** What a rule sets on a shipment (decisions §6: `[{name, val}]` becomes `{name: val}`). */
export interface RuleCarrierChoice {
  carrier: { carrierId: string; productId: string; services: string[]; additionalParameters: Record<string, string> };
  senderAddressId: string;
}

export function ruleCarrierChoice(rule: ShippingRuleRow): RuleCarrierChoice {
  return {
    carrier: {
      carrierId: rule.carrierId,
      productId: rule.productId,
      services: [...rule.services],
      additionalParameters: Object.fromEntries(rule.additionalParameters.map((parameter) => [parameter.name, parameter.val])),
    },
    senderAddressId: rule.senderAddressId,
  };
}

/** Stored conditions are written from the checked body, so each carries only its own keys. */
export function toCondition(stored: ShippingRuleRow['conditions'][number]): Condition {
  const condition: Condition = { type: stored.type, shippingPrice: stored.shippingPrice, currency: stored.currency };
  if (stored.min !== undefined) condition.min = stored.min;
  if (stored.max !== undefined) condition.max = stored.max;
  if (stored.operator !== undefined) condition.operator = stored.operator as NonNullable<Condition['operator']>;
  if (stored.value !== undefined) condition.value = stored.value;
  return condition;
}

export function toShippingRule(row: ShippingRuleRow): ShippingRule {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    carrierId: row.carrierId,
    productId: row.productId,
    services: row.services,
    additionalParameters: row.additionalParameters,
    senderAddressId: row.senderAddressId,
    receivingCountries: row.receivingCountries,
    conditions: row.conditions.map(toCondition),
    emailNotification: row.emailNotification,
    phoneNotification: row.phoneNotification,
    generateProformaInvoice: row.generateProformaInvoice,
    generateCommercialInvoice: row.generateCommercialInvoice,
    generatePackingList: row.generatePackingList,
    autoPrintLabels: row.autoPrintLabels,
    autoPrintDocuments: row.autoPrintDocuments,
    labelPrinterId: row.labelPrinterId,
    documentPrinterId: row.documentPrinterId,
    returnShippingRuleId: row.returnShippingRuleId,
    autoCreateReturnShipment: row.autoCreateReturnShipment,
    orgId: row.orgId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const live = (orgId: string) => and(eq(shippingRules.orgId, orgId), isNull(shippingRules.deletedAt));

/** The live row, or 404 SHIPPING_RULE_NOT_FOUND (also for another organization's rule). */
/** The rule while it is not deleted, else undefined. */
export function liveShippingRuleRow(db: ReadDb, orgId: string, ruleId: string): ShippingRuleRow | undefined {
  return db
    .select()
    .from(shippingRules)
    .where(and(live(orgId), eq(shippingRules.id, ruleId)))
    .get();
}

export function findShippingRuleRow(db: ReadDb, orgId: string, ruleId: string): ShippingRuleRow {
  const row = liveShippingRuleRow(db, orgId, ruleId);
  if (!row) throw new ApiError('SHIPPING_RULE_NOT_FOUND', `Shipping rule ${ruleId} does not exist in this organization`);
  return row;
}

function livePrinter(db: ReadDb, orgId: string, printerId: string | null): { name: string; format: string } | null {
  if (printerId === null) return null;
  const row = db
    .select({ name: printers.name, format: printers.format })
    .from(printers)
    .where(and(eq(printers.orgId, orgId), isNull(printers.deletedAt), eq(printers.id, printerId)))
    .get();
  if (!row) throw new ApiError('PRINTER_NOT_FOUND', `Printer ${printerId} does not exist in this organization`);
  return row;
}

/**
 * Any printer takes labels (one of the other format gets the label drawn for it), but the papers
 * exist only as A4 PDFs: a ZPL document printer would fail every automatic print, found out at send.
 */
function assertDocumentPrinter(db: ReadDb, orgId: string, printerId: string | null): void {
  const printer = livePrinter(db, orgId, printerId);
  if (printer && printer.format !== 'pdf') {
    throw validationError('body', [
      {
        path: ['documentPrinterId'],
        message: `${printer.name} prints ${printer.format.toUpperCase()}; packing lists and invoices are PDF, so choose a PDF printer`,
      },
    ]);
  }
}

/** Every reference of the rule as it will be stored; runs inside the writing transaction. */
function assertReferences(db: ReadDb, row: ShippingRuleRow): void {
  // The carrier must exist; its product and services are checked when a shipment is sent (decisions §8).
  findCarrierRow(db, row.orgId, row.carrierId);
  findSenderAddressRow(db, row.orgId, row.senderAddressId);
  livePrinter(db, row.orgId, row.labelPrinterId);
  assertDocumentPrinter(db, row.orgId, row.documentPrinterId);
  if (row.returnShippingRuleId !== null) {
    if (row.returnShippingRuleId === row.id) {
      throw validationError('body', [{ path: ['returnShippingRuleId'], message: 'A rule cannot be its own return rule' }]);
    }
    findShippingRuleRow(db, row.orgId, row.returnShippingRuleId);
  }
}

export function createShippingRule(app: AppContext, orgId: string, input: ShippingRuleCreateInput): ShippingRule {
  const now = app.now().toISOString();
  return inWriteTransaction(app.db, (tx) => {
    const row: ShippingRuleRow = {
      id: newId('shippingRule'),
      orgId,
      name: input.name,
      description: input.description ?? null,
      carrierId: input.carrierId,
      productId: input.productId,
      services: input.services,
      additionalParameters: input.additionalParameters ?? [],
      senderAddressId: input.senderAddressId,
      receivingCountries: input.receivingCountries,
      conditions: input.conditions,
      emailNotification: input.emailNotification ?? false,
      phoneNotification: input.phoneNotification ?? false,
      generateProformaInvoice: input.generateProformaInvoice ?? false,
      generateCommercialInvoice: input.generateCommercialInvoice ?? false,
      generatePackingList: input.generatePackingList ?? false,
      autoPrintLabels: input.autoPrintLabels ?? false,
      autoPrintDocuments: input.autoPrintDocuments ?? false,
      labelPrinterId: input.labelPrinterId ?? null,
      documentPrinterId: input.documentPrinterId ?? null,
      returnShippingRuleId: input.returnShippingRuleId ?? null,
      autoCreateReturnShipment: input.autoCreateReturnShipment ?? false,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    assertReferences(tx, row);
    assertWithinLimit(tx, orgId, 'shippingRules', now);
    tx.insert(shippingRules).values(row).run();
    return toShippingRule(row);
  });
}

const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((row) => [row.id, row]));

/**
 * Adds carrier, sender address, printers and return rule to a page of rules with one query per kind.
 * A live rule's carrier, address and return rule are live (their deletes are refused meanwhile); a
 * printer is shown by whatever row the id names.
 */
function expand(app: AppContext, db: ReadDb, rows: ShippingRuleRow[]): ShippingRuleExpanded[] {
  if (rows.length === 0) return [];
  const ids = (pick: (row: ShippingRuleRow) => string | null) => [...new Set(rows.map(pick).filter((id): id is string => id !== null))];
  const carrierIds = ids((row) => row.carrierId);
  const addressIds = ids((row) => row.senderAddressId);
  const printerIds = [...new Set([...ids((row) => row.labelPrinterId), ...ids((row) => row.documentPrinterId)])];
  const returnIds = ids((row) => row.returnShippingRuleId);
  const carrierRows = byId(db.select().from(carriers).where(inArray(carriers.id, carrierIds)).all());
  const addressRows = byId(db.select().from(senderAddresses).where(inArray(senderAddresses.id, addressIds)).all());
  const printerRows = byId(
    printerIds.length ? db.select({ id: printers.id, name: printers.name }).from(printers).where(inArray(printers.id, printerIds)).all() : [],
  );
  const returnRows = byId(
    returnIds.length ? db.select({ id: shippingRules.id, name: shippingRules.name }).from(shippingRules).where(inArray(shippingRules.id, returnIds)).all() : [],
  );
  return rows.map((row) => {
    const carrier = carrierRows.get(row.carrierId);
    const address = addressRows.get(row.senderAddressId);
    if (!carrier || !address) throw new Error(`Shipping rule ${row.id} points at a missing carrier or sender address`);
    const expanded: ShippingRuleExpanded = { ...toShippingRule(row), carrier: toCarrierBase(app, carrier), senderAddress: toSenderAddress(address) };
    const labelPrinter = row.labelPrinterId ? printerRows.get(row.labelPrinterId) : undefined;
    if (labelPrinter) expanded.labelPrinter = { id: labelPrinter.id, name: labelPrinter.name };
    const documentPrinter = row.documentPrinterId ? printerRows.get(row.documentPrinterId) : undefined;
    if (documentPrinter) expanded.documentPrinter = { id: documentPrinter.id, name: documentPrinter.name };
    const returnRule = row.returnShippingRuleId ? returnRows.get(row.returnShippingRuleId) : undefined;
    if (returnRule) expanded.returnShippingRule = { id: returnRule.id, name: returnRule.name };
    return expanded;
  });
}

export function listShippingRules(app: AppContext, orgId: string, query: PageQuery): Page<ShippingRuleExpanded> {
  const total = app.db.select({ n: count() }).from(shippingRules).where(live(orgId)).get()?.n ?? 0;
  return paginate(query, total, (limit, offset) =>
    expand(
      app,
      app.db,
      app.db.select().from(shippingRules).where(live(orgId)).orderBy(desc(shippingRules.createdAt), desc(shippingRules.id)).limit(limit).offset(offset).all(),
    ),
  );
}

export function getShippingRule(app: AppContext, orgId: string, ruleId: string): ShippingRuleExpanded {
  const [expanded] = expand(app, app.db, [findShippingRuleRow(app.db, orgId, ruleId)]);
  if (!expanded) throw new ApiError('SHIPPING_RULE_NOT_FOUND', `Shipping rule ${ruleId} does not exist in this organization`);
  return expanded;
}

/** PATCH: only the fields given change; the result is checked as a whole, like a create. */
export function updateShippingRule(app: AppContext, orgId: string, ruleId: string, input: ShippingRuleUpdateInput): ShippingRule {
  return inWriteTransaction(app.db, (tx) => {
    const row = findShippingRuleRow(tx, orgId, ruleId);
    const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<ShippingRuleRow>;
    const updated: ShippingRuleRow = { ...row, ...changes, updatedAt: app.now().toISOString() };
    assertReferences(tx, updated);
    tx.update(shippingRules).set(updateColumns(updated)).where(eq(shippingRules.id, ruleId)).run();
    return toShippingRule(updated);
  });
}

/** Another live rule that sends its returns with this one, if any. */
function ruleReturningWith(tx: WriteTx, orgId: string, ruleId: string) {
  return tx
    .select({ id: shippingRules.id, name: shippingRules.name })
    .from(shippingRules)
    .where(and(live(orgId), eq(shippingRules.returnShippingRuleId, ruleId), ne(shippingRules.id, ruleId)))
    .get();
}

/** Soft delete, so shipments made by the rule keep their reference; refused while a rule returns with it. */
export function deleteShippingRule(app: AppContext, orgId: string, ruleId: string): { message: string } {
  return inWriteTransaction(app.db, (tx) => {
    findShippingRuleRow(tx, orgId, ruleId);
    const user = ruleReturningWith(tx, orgId, ruleId);
    if (user) {
      throw new ApiError('CONFLICT', `Shipping rule ${ruleId} is the return rule of shipping rule ${user.id} (${user.name}); change that rule first`);
    }
    const now = app.now().toISOString();
    tx.update(shippingRules).set({ deletedAt: now, updatedAt: now }).where(eq(shippingRules.id, ruleId)).run();
    return { message: `Shipping rule ${ruleId} deleted` };
  });
}
