import type { OrderLine } from '../../../src-shared/schemas/order';
import type { Parcel, ParcelOrderLine, Shipment, ShipmentDocument } from '../../../src-shared/schemas/shipment';

/**
 * Shipments as a read answers them, for the renderer's unit tests: every field present, so a test
 * names only what it is about (a status, a parcel's lines, a label).
 */

const at = '2025-03-01T10:00:00.000Z';

export function orderLine(id: string, sku: string, quantity: number, more: Partial<ParcelOrderLine> = {}): ParcelOrderLine {
  return {
    id,
    sku,
    quantity,
    description: '',
    unitPrice: 0,
    currency: '',
    vatPercent: 0,
    location: '',
    countryOfOrigin: '',
    tarrifNumber: '',
    weight: null,
    ...more,
  };
}

/** An order's line as the order read answers it: only its id, name and SKU set. */
export function orderItem(id: string, name: string, sku: string | null, more: Partial<OrderLine> = {}): OrderLine {
  return {
    id,
    name,
    quantity: 1,
    sku,
    unitPrice: null,
    totalPrice: null,
    currency: null,
    weight: null,
    weightUnit: null,
    variantId: null,
    productId: null,
    imageUrl: null,
    hsCode: null,
    countryOfOrigin: null,
    provinceOfOrigin: null,
    barcode: null,
    vendor: null,
    location: null,
    requiresShipping: true,
    taxable: true,
    giftCard: false,
    ...more,
  };
}

export function parcel(id: string, orderLines: ParcelOrderLine[], more: Partial<Parcel> = {}): Parcel {
  return { id, weight: 1, weightUnit: 'kg', dimensions: { length: 30, width: 20, height: 10 }, orderLines, ...more };
}

export function document(id: string, more: Partial<ShipmentDocument> = {}): ShipmentDocument {
  return { id, shipmentId: 'shp_1', documentType: 'label', format: 'pdf', content: '', size: 'A6', createdAt: at, updatedAt: at, ...more };
}

export function shipment(more: Partial<Shipment> = {}): Shipment {
  return {
    id: 'shp_1',
    reference: 'SHP-000001',
    senderAddressId: 'sad_1',
    parties: [],
    type: 'outbound',
    carrierSettings: { carrierId: 'car_1', productId: 'parcel', services: [], additionalParameters: {} },
    parcels: [parcel('prc_1', [orderLine('pol_1', 'MUG', 2)])],
    termOfTrade: 'DAP',
    status: 'pending',
    orgId: 'org_1',
    createdAt: at,
    updatedAt: at,
    servicePointId: null,
    documents: [],
    orderId: null,
    shippingRuleId: null,
    returnForShipmentId: null,
    errors: [],
    activities: [],
    logs: [],
    ...more,
  };
}
