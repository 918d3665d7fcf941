/**
 * Orders (interface §2.10, §4.3; decisions §5a): create, list, read, PATCH and delete. An order's
 * status and shipment count are derived from its shipments by allocation.ts; here status is only
 * ever set to `cancelled`, which sticks.
 */
import { and, asc, count, desc, eq, gte, inArray, lte, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { ApiError } from '../../../src-shared/errors';
import type { Page } from '../../../src-shared/schemas/common';
import type {
  OrderCreateInput,
  OrderDetail,
  OrderLine,
  OrderLineInput,
  OrderLineUpdateInput,
  OrderStatus,
  OrderSummary,
  OrderUpdateInput,
  orderListQuery,
} from '../../../src-shared/schemas/order';
import type { OrderChannelType } from '../../../src-shared/schemas/orderChannel';
import { orderChannels, orderLines, orders, parcelOrderLines, shipments, shippingRules, type ShippingAddress } from '../../db/schema';
import { newId } from '../../db/ids';
import type { Db } from '../../db/types';
import { insertRows, prepared } from '../../db/prepared';
import { inWriteTransaction, type ReadDb, type WriteTx } from '../../db/tx';
import { inIds } from '../../db/inIds';
import { FEW_TO_READ, textMatches, withSearchDocsDeferred } from '../../db/search';
import type { AppContext } from '../../app/kernel/context';
import { emitEvent } from '../events';
import { findOrderChannelRow } from '../orderChannels/orderChannels';
import { paginate } from '../pagination';
import { findOrderRow, type OrderRow } from '../shipments/fromOrder';
import { readShipments, ruleSummary } from '../shipments/repository';
import { cancelUnbookedShipmentsOfOrder } from '../shipments/cancelWithOrder';
import { deriveOrderStatus, liveShipmentCount, placedQuantities } from './allocation';
import { updateColumns } from '../../db/updateColumns';
import { canonicalJson } from '../../app/kernel/canonicalJson';
import { lineCurrency, orgCurrency } from './lineCurrency';
import { shopChangeOf } from './shopChangeState';

export type OrderListQuery = z.output<typeof orderListQuery>;
type OrderLineRow = typeof orderLines.$inferSelect;
type ChannelRef = OrderSummary['orderChannel'];

/** PATCH is refused in these statuses (decisions §5a). */
const frozenStatuses: readonly string[] = ['fulfilled', 'cancelled'];
const editableStatuses = ['pending', 'processing', 'partially_fulfilled', 'error'] as const;

// ---- Mapping to the API shape ----

function toOrderSummary(row: OrderRow, channel: ChannelRef): OrderSummary {
  return {
    id: row.id,
    orderNumber: row.orderNumber,
    status: row.status as OrderStatus,
    shipmentCount: row.shipmentCount,
    orderChannel: channel,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    customerName: row.customerName,
    customerEmail: row.customerEmail,
    totalAmount: row.totalAmount,
    currency: row.currency,
  };
}

/** `currency`: the order's (or organization's) for a line stored without one (lineCurrency.ts). */
function toOrderLine(row: OrderLineRow, currency: string): OrderLine {
  return {
    id: row.id,
    name: row.name,
    quantity: row.quantity,
    sku: row.sku,
    unitPrice: row.unitPrice,
    totalPrice: row.totalPrice,
    currency: row.currency || currency,
    weight: row.weight,
    // decisions §1: weights are in kg unless a unit is given.
    weightUnit: row.weightUnit ?? 'kg',
    variantId: row.variantId,
    productId: row.productId,
    imageUrl: row.imageUrl,
    hsCode: row.hsCode,
    countryOfOrigin: row.countryOfOrigin,
    provinceOfOrigin: row.provinceOfOrigin,
    barcode: row.barcode,
    vendor: row.vendor,
    location: row.location,
    requiresShipping: row.requiresShipping,
    taxable: row.taxable,
    giftCard: row.giftCard,
  };
}

/** Every spec field present; the ones the caller left out are null (decisions §1 "Empty values"). */
export function toShippingAddress(address: ShippingAddress): NonNullable<OrderDetail['shippingAddress']> {
  return {
    name: address.name,
    address1: address.address1,
    city: address.city,
    postalCode: address.postalCode,
    countryCode: address.countryCode,
    attention: address.attention ?? null,
    company: address.company ?? null,
    address2: address.address2 ?? null,
    province: address.province ?? null,
    provinceCode: address.provinceCode ?? null,
    country: address.country ?? null,
    phone: address.phone ?? null,
    email: address.email ?? null,
  };
}

// A soft-deleted channel still names its orders, so the reference is read without the live filter.
function channelRef(db: ReadDb, channelId: string): ChannelRef {
  const channel = prepared(db, 'orders.channelRef', channelById).get({ channelId });
  if (!channel) throw new ApiError('INTERNAL_ERROR', `Order channel ${channelId} of an order is missing`);
  return { id: channel.id, name: channel.name, type: channel.type as OrderChannelType };
}

/** The order's shipments, oldest first: the fields of their full reads the order detail shows. */
function orderShipments(db: ReadDb, orgId: string, orderId: string): OrderDetail['shipments'] {
  const ids = prepared(db, 'orders.shipmentIds', shipmentIdsOfOrder)
    .all({ orderId })
    .map((row) => row.id);
  return readShipments(db, orgId, ids).map((shipment) => {
    const summary: OrderDetail['shipments'][number] = {
      id: shipment.id,
      reference: shipment.reference,
      status: shipment.status,
      type: shipment.type,
      carrierSettings: shipment.carrierSettings,
      createdAt: shipment.createdAt,
      updatedAt: shipment.updatedAt,
      shippingRuleId: shipment.shippingRuleId,
      documents: shipment.documents,
    };
    if (shipment.tracking) summary.tracking = shipment.tracking;
    return summary;
  });
}

function toOrderDetail(db: ReadDb, row: OrderRow): OrderDetail {
  const lines = prepared(db, 'orders.lines', linesOfOrder).all({ orderId: row.id });
  const detail: OrderDetail = {
    ...toOrderSummary(row, channelRef(db, row.orderChannelId)),
    orderLines: lines.map((line) => toOrderLine(line, lineCurrency(null, row.currency, orgCurrency(db, row.orgId)))),
    orderChannelId: row.orderChannelId,
    orgId: row.orgId,
    shipments: orderShipments(db, row.orgId, row.id),
    externalId: row.externalId,
    shippingRuleId: row.shippingRuleId,
    notes: row.notes,
    servicePointId: row.servicePointId,
    externalData: row.externalData,
    shopChange: shopChangeOf(row.shopChange, toShippingAddress),
  };
  if (row.shippingAddress) detail.shippingAddress = toShippingAddress(row.shippingAddress);
  const rule = ruleSummary(db, row.shippingRuleId);
  if (rule) detail.shippingRule = rule;
  return detail;
}

/** The order detail, or 404 ORDER_NOT_FOUND (also for another organization's order). */
export function readOrder(db: ReadDb, orgId: string, orderId: string): OrderDetail {
  return toOrderDetail(db, findOrderRow(db, orgId, orderId));
}

// ---- Checks ----

/** A live shipping rule of the organization, or 404 SHIPPING_RULE_NOT_FOUND. */
function assertShippingRule(db: ReadDb, orgId: string, ruleId: string): void {
  const rule = db
    .select({ id: shippingRules.id })
    .from(shippingRules)
    .where(and(eq(shippingRules.orgId, orgId), eq(shippingRules.id, ruleId), isNull(shippingRules.deletedAt)))
    .get();
  if (!rule) throw new ApiError('SHIPPING_RULE_NOT_FOUND', `Shipping rule ${ruleId} does not exist in this organization`);
}

// Every order written (an import of thousands, a storefront sync) runs these: prepared once per connection.
const orderByNumber = (root: Db) =>
  root
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.orderChannelId, sql.placeholder('channelId')),
        eq(orders.orderNumber, sql.placeholder('orderNumber')),
        ne(orders.id, sql.placeholder('exceptOrderId')),
      ),
    )
    .prepare();
const linesOfOrder = (root: Db) =>
  root
    .select()
    .from(orderLines)
    .where(eq(orderLines.orderId, sql.placeholder('orderId')))
    .orderBy(asc(orderLines.position))
    .prepare();
const channelById = (root: Db) =>
  root
    .select({ id: orderChannels.id, name: orderChannels.name, type: orderChannels.type })
    .from(orderChannels)
    .where(eq(orderChannels.id, sql.placeholder('channelId')))
    .prepare();
const shipmentIdsOfOrder = (root: Db) =>
  root
    .select({ id: shipments.id })
    .from(shipments)
    .where(eq(shipments.orderId, sql.placeholder('orderId')))
    .orderBy(asc(shipments.createdAt), asc(shipments.id))
    .prepare();

/** decisions §5a: `orderNumber` is unique per channel (the unique index backs this up). */
function assertOrderNumberFree(db: ReadDb, channelId: string, orderNumber: string, exceptOrderId?: string): void {
  const clash = prepared(db, 'orders.numberInChannel', orderByNumber).get({ channelId, orderNumber, exceptOrderId: exceptOrderId ?? '' });
  if (clash) throw new ApiError('CONFLICT', `Order number ${orderNumber} already exists in order channel ${channelId} (order ${clash.id})`);
}

// ---- Writing ----

/**
 * The columns of an order line at `position`, from what was given (defaults for what was not);
 * `currency` is the order's, else the organization's, for a line given without one.
 */
function orderLineValues(line: OrderLineInput, position: number, currency: string) {
  return {
    position,
    name: line.name,
    quantity: line.quantity,
    sku: line.sku ?? null,
    unitPrice: line.unitPrice ?? null,
    totalPrice: line.totalPrice ?? null,
    currency: line.currency ?? currency,
    weight: line.weight ?? null,
    weightUnit: line.weightUnit ?? 'kg',
    variantId: line.variantId ?? null,
    productId: line.productId ?? null,
    imageUrl: line.imageUrl ?? null,
    hsCode: line.hsCode ?? null,
    countryOfOrigin: line.countryOfOrigin ?? null,
    provinceOfOrigin: line.provinceOfOrigin ?? null,
    barcode: line.barcode ?? null,
    vendor: line.vendor ?? null,
    location: line.location || null,
    requiresShipping: line.requiresShipping,
    taxable: line.taxable,
    giftCard: line.giftCard,
  };
}

function insertOrderLines(tx: WriteTx, orderId: string, lines: readonly OrderLineInput[], currency: string): void {
  insertRows(
    tx,
    orderLines,
    lines.map((line, position) => ({ id: newId('orderLine'), orderId, ...orderLineValues(line, position, currency) })),
  );
}

/**
 * The order's lines from a PATCH: a line with the id of one of the order's lines is that line
 * changed, one without is new, and a line left out goes. What live shipments hold stays covered —
 * a held line can neither go nor drop below the units placed (409) — so an item can be added to an
 * order that is partly packed. The parcel lines of cancelled shipments and returns are copies and
 * are let go of a line that goes.
 */
function replaceOrderLines(tx: WriteTx, order: OrderRow, lines: readonly OrderLineUpdateInput[], currency: string): void {
  const rows = tx.select({ id: orderLines.id, name: orderLines.name, sku: orderLines.sku }).from(orderLines).where(eq(orderLines.orderId, order.id)).all();
  const existing = new Map(rows.map((line) => [line.id, line.name]));
  const placed = placedQuantities(tx, order.id);
  const given = new Map<string, OrderLineUpdateInput>();
  /** The existing line each given line is, by position; undefined for a new line. */
  const lineIds: (string | undefined)[] = lines.map((line) => line.id);
  const problems: { path: string; message: string }[] = [];
  lines.forEach((line, index) => {
    if (line.id === undefined) return;
    if (!existing.has(line.id)) problems.push({ path: `body.orderLines.${index}.id`, message: `Not a line of order ${order.orderNumber}` });
    else if (given.has(line.id)) problems.push({ path: `body.orderLines.${index}.id`, message: 'The same line is given twice' });
    given.set(line.id, line);
  });
  if (problems.length) throw new ApiError('VALIDATION_FAILED', `Invalid ${problems[0]?.path}: ${problems[0]?.message}`, { details: problems });
  // A line given without its id is the one line no other names that has its SKU: a client that sends
  // the whole list as the spec shows an order line (no id) changes the lines instead of replacing
  // them, which shipments holding units would refuse. Two lines with one SKU stay ambiguous: new.
  const unnamedBySku = new Map<string, string[]>();
  for (const row of rows) if (row.sku && !given.has(row.id)) unnamedBySku.set(row.sku, [...(unnamedBySku.get(row.sku) ?? []), row.id]);
  lines.forEach((line, index) => {
    const candidates = line.id === undefined && line.sku ? unnamedBySku.get(line.sku) : undefined;
    if (candidates?.length !== 1 || !line.sku) return;
    const lineId = candidates[0] as string;
    lineIds[index] = lineId;
    given.set(lineId, line);
    unnamedBySku.delete(line.sku);
  });
  for (const [lineId, held] of placed) {
    const name = existing.get(lineId);
    if (name === undefined || held <= 0) continue;
    const line = given.get(lineId);
    if (!line) {
      throw new ApiError(
        'ORDER_INVALID_STATE',
        `Line ${lineId} (${name}) of order ${order.orderNumber} has ${held} unit(s) placed in live shipments; keep it in orderLines (with its id, or its SKU), or cancel those shipments first`,
      );
    }
    if (line.quantity < held) {
      throw new ApiError(
        'ORDER_INVALID_STATE',
        `Line ${lineId} (${name}) of order ${order.orderNumber} has ${held} unit(s) placed in live shipments; its quantity cannot go below ${held}`,
      );
    }
  }
  const gone = [...existing.keys()].filter((lineId) => !given.has(lineId));
  if (gone.length) {
    tx.update(parcelOrderLines).set({ orderLineId: null }).where(inArray(parcelOrderLines.orderLineId, gone)).run();
    tx.delete(orderLines).where(inArray(orderLines.id, gone)).run();
  }
  const added: (typeof orderLines.$inferInsert)[] = [];
  lines.forEach((line, position) => {
    const lineId = lineIds[position];
    if (lineId !== undefined)
      tx.update(orderLines)
        .set(orderLineValues(line, position, currency))
        .where(eq(orderLines.id, lineId))
        .run();
    else added.push({ id: newId('orderLine'), orderId: order.id, ...orderLineValues(line, position, currency) });
  });
  insertRows(tx, orderLines, added);
}

/** Writes an order and its lines inside the caller's transaction and emits order.created. */
export function insertOrder(tx: WriteTx, now: Date, orgId: string, input: OrderCreateInput): OrderDetail {
  findOrderChannelRow(tx, orgId, input.orderChannelId);
  assertOrderNumberFree(tx, input.orderChannelId, input.orderNumber);
  if (input.shippingRuleId) assertShippingRule(tx, orgId, input.shippingRuleId);
  const at = now.toISOString();
  const row: OrderRow = {
    id: newId('order'),
    orgId,
    orderChannelId: input.orderChannelId,
    orderNumber: input.orderNumber,
    externalId: input.externalId ?? null,
    status: 'pending',
    shipmentCount: 0,
    customerName: input.customerName ?? null,
    customerEmail: input.customerEmail ?? null,
    shippingRuleId: input.shippingRuleId ?? null,
    notes: input.notes ?? null,
    servicePointId: input.servicePointId ?? null,
    shopChange: null,
    shippingAddress: input.shippingAddress ?? null,
    totalAmount: input.totalAmount ?? null,
    currency: input.currency ?? null,
    externalData: input.externalData ?? {},
    createdAt: at,
    updatedAt: at,
  };
  // The order's search document is written once, after its lines.
  withSearchDocsDeferred(tx, 'order', [row.id], () => {
    insertRows(tx, orders, [row]);
    insertOrderLines(tx, row.id, input.orderLines, lineCurrency(null, row.currency, orgCurrency(tx, orgId)));
  });
  const detail = toOrderDetail(tx, row);
  emitEvent(tx, now, orgId, 'order.created', detail);
  return detail;
}

export function createOrder(app: AppContext, orgId: string, input: OrderCreateInput): OrderDetail {
  const now = app.now();
  return inWriteTransaction(app.db, (tx) => insertOrder(tx, now, orgId, input));
}

// ---- Reading ----

/** Interface §2.10 summaries, newest first; filters status, channel, dates and a search over number, customer and SKUs. */
export function listOrders(app: AppContext, orgId: string, query: OrderListQuery): Page<OrderSummary> {
  const filters: SQL[] = [];
  if (query.status) filters.push(eq(orders.status, query.status));
  if (query.orderChannelId) filters.push(eq(orders.orderChannelId, query.orderChannelId));
  if (query.createdFrom) filters.push(gte(orders.createdAt, query.createdFrom));
  if (query.createdTo) filters.push(lte(orders.createdAt, query.createdTo));
  if (query.orderNumber) {
    const channelsOfOrg = app.db.select({ id: orderChannels.id }).from(orderChannels).where(eq(orderChannels.orgId, orgId));
    filters.push(eq(orders.orderNumber, query.orderNumber), inArray(orders.orderChannelId, channelsOfOrg));
  }
  const search = query.search ? textMatches(app.db, 'order', orgId, query.search) : undefined;
  // A search alone: the trigram index counts its matches and hands out the page, newest first.
  const bySearch = search?.page && !filters.length ? search : undefined;
  const fewIds = search && !bySearch ? search.few() : undefined;
  if (search && !bySearch) filters.push(fewIds ? inIds(orders.id, fewIds) : sql`${orders.id} IN (${search.subquery})`);
  // With an exact order number or few matches of a search, `+org_id` keeps SQLite off the
  // organization's indexes (it would walk every order of the organization): the (channel, number)
  // index, or the matches' ids, find the orders, which are then sorted.
  const fewRows = query.orderNumber !== undefined || fewIds !== undefined;
  filters.unshift(fewRows ? sql`+${orders.orgId} = ${orgId}` : eq(orders.orgId, orgId));
  const where = and(...filters);
  // A search alone with few matches: they come oldest first from the index, in the list's order.
  const searchIds = bySearch?.few(FEW_TO_READ)?.reverse();
  const total = searchIds ? searchIds.length : bySearch ? bySearch.total() : (app.db.select({ n: count() }).from(orders).where(where).get()?.n ?? 0);
  const summaries = (where: SQL | undefined) =>
    app.db
      .select({ order: orders, channel: { id: orderChannels.id, name: orderChannels.name, type: orderChannels.type } })
      .from(orders)
      .innerJoin(orderChannels, eq(orderChannels.id, orders.orderChannelId))
      .where(where);
  const toSummary = ({ order, channel }: ReturnType<ReturnType<typeof summaries>['all']>[number]) =>
    toOrderSummary(order, { ...channel, type: channel.type as OrderChannelType });
  return paginate(query, total, (limit, offset) => {
    if (bySearch?.page) {
      const ids = searchIds ? searchIds.slice(offset, offset + limit) : bySearch.page(limit, offset, true);
      const rows = new Map(
        summaries(and(sql`+${orders.orgId} = ${orgId}`, inIds(orders.id, ids)))
          .all()
          .map((row) => [row.order.id, row]),
      );
      return ids.map((id) => toSummary(rows.get(id) as NonNullable<ReturnType<typeof rows.get>>));
    }
    return (
      summaries(where)
        // `+column`: sort the few matches instead of walking every order in this order.
        .orderBy(...(!fewRows ? [desc(orders.createdAt), desc(orders.id)] : [desc(sql`+${orders.createdAt}`), desc(sql`+${orders.id}`)]))
        .limit(limit)
        .offset(offset)
        .all()
        .map(toSummary)
    );
  });
}

export function getOrder(app: AppContext, orgId: string, orderId: string): OrderDetail {
  return readOrder(app.db, orgId, orderId);
}

// ---- Changing ----

const nullableFields = ['externalId', 'customerName', 'customerEmail', 'notes', 'servicePointId', 'totalAmount', 'currency'] as const;

/**
 * PATCH (decisions §5a): only the fields given; refused once the order is fulfilled or cancelled.
 * `status: 'cancelled'` cancels for good, with the order's shipments not yet booked
 * (cancelWithOrder.ts). Lines are replaced only while no live shipment holds any of them, since a
 * shipment's parcel lines point at the order lines they were allocated from. A field given with the
 * value it already has is no change: no new `updatedAt`, no order.updated.
 */
export function updateOrder(app: AppContext, orgId: string, orderId: string, input: OrderUpdateInput): OrderDetail {
  const now = app.now();
  return inWriteTransaction(app.db, (tx) => applyOrderUpdate(tx, now, orgId, orderId, input));
}

/** updateOrder inside the caller's transaction (the storefront sync applies the shop's changes with it). */
export function applyOrderUpdate(tx: WriteTx, now: Date, orgId: string, orderId: string, input: OrderUpdateInput): OrderDetail {
  const row = findOrderRow(tx, orgId, orderId);
  if (frozenStatuses.includes(row.status)) {
    throw new ApiError('ORDER_INVALID_STATE', `Order ${row.orderNumber} is ${row.status}; it can be changed only when ${editableStatuses.join(', ')}`);
  }

  const changes: Partial<OrderRow> = {};
  if (input.orderNumber !== undefined && input.orderNumber !== row.orderNumber) {
    assertOrderNumberFree(tx, row.orderChannelId, input.orderNumber, row.id);
    changes.orderNumber = input.orderNumber;
  }
  if (input.shippingRuleId !== undefined && input.shippingRuleId !== row.shippingRuleId) {
    if (input.shippingRuleId !== null) assertShippingRule(tx, orgId, input.shippingRuleId);
    changes.shippingRuleId = input.shippingRuleId;
  }
  for (const field of nullableFields) {
    const value = input[field];
    if (value !== undefined && value !== row[field]) Object.assign(changes, { [field]: value });
  }
  if (input.shippingAddress !== undefined && canonicalJson(input.shippingAddress) !== canonicalJson(row.shippingAddress))
    changes.shippingAddress = input.shippingAddress;
  if (input.externalData !== undefined && canonicalJson(input.externalData) !== canonicalJson(row.externalData)) changes.externalData = input.externalData;

  if (input.orderLines) {
    const orderCurrency = input.currency !== undefined ? input.currency : row.currency;
    replaceOrderLines(tx, row, input.orderLines, lineCurrency(null, orderCurrency, orgCurrency(tx, orgId)));
  }

  const fieldsChanged = Object.keys(changes).length > 0 || input.orderLines !== undefined;
  const cancelling = input.status === 'cancelled';
  if (!fieldsChanged && !cancelling) return toOrderDetail(tx, row);

  if (cancelling) cancelUnbookedShipmentsOfOrder(tx, now, orgId, row);
  // New lines change what "fulfilled" means, so the status is derived again (or set to cancelled).
  const status = cancelling ? 'cancelled' : deriveOrderStatus(tx, orderId, row.status);
  const shipmentCount = cancelling ? liveShipmentCount(tx, orderId) : row.shipmentCount;
  const updated: OrderRow = { ...row, ...changes, status, shipmentCount, updatedAt: now.toISOString() };
  tx.update(orders).set(updateColumns(updated)).where(eq(orders.id, orderId)).run();
  const detail = toOrderDetail(tx, updated);
  // A bare cancel is told by order.cancelled alone.
  if (fieldsChanged || (!cancelling && status !== row.status)) emitEvent(tx, now, orgId, 'order.updated', { ...detail, previousStatus: row.status });
  if (cancelling) emitEvent(tx, now, orgId, 'order.cancelled', detail);
  return detail;
}

/** Only an order no shipment refers to (not even a cancelled one or a return) can be deleted; its lines go with it. */
export function deleteOrder(app: AppContext, orgId: string, orderId: string): { message: string } {
  return inWriteTransaction(app.db, (tx) => {
    const row = findOrderRow(tx, orgId, orderId);
    const shipmentCount = tx.select({ n: count() }).from(shipments).where(eq(shipments.orderId, orderId)).get()?.n ?? 0;
    if (shipmentCount > 0) {
      throw new ApiError(
        'ORDER_INVALID_STATE',
        `Order ${row.orderNumber} has ${shipmentCount} shipment(s); only an order without shipments can be deleted (cancel it instead)`,
      );
    }
    tx.delete(orders).where(eq(orders.id, orderId)).run();
    return { message: `Order ${orderId} deleted` };
  });
}
