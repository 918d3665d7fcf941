import { useMemo } from 'react';
import type { CarrierProduct } from '../../../../src-shared/schemas/carrier';
import { useOperations } from '../../lib/useOperation';

/** Products by carrier id, then product id, for their names: `local_parcel` → "Own delivery, parcel". */
export type ProductNames = ReadonlyMap<string, ReadonlyMap<string, CarrierProduct>>;

/** A product's name as the shipment page shows it; the id when the carrier or product is unknown. */
export function productName(names: ProductNames, carrierId: string, productId: string): string {
  return names.get(carrierId)?.get(productId)?.name ?? productId;
}

/** The services' names, each by its id when the product (or the product itself) is unknown. */
export function serviceNamesOf(product: CarrierProduct | undefined, serviceIds: readonly string[]): string[] {
  return serviceIds.map((id) => product?.services.find((service) => service.serviceId === id)?.name ?? id);
}

export function serviceNames(names: ProductNames, carrierId: string, productId: string, serviceIds: readonly string[]): string[] {
  return serviceNamesOf(names.get(carrierId)?.get(productId), serviceIds);
}

/**
 * The products of every carrier given (the organization's few carriers), for tables that show many
 * shipments. A carrier whose products cannot be read only costs its names: its ids are shown.
 */
export function useProductNames(orgId: string, carriers: readonly { id: string }[] | undefined): ProductNames {
  const ids = (carriers ?? []).map((carrier) => carrier.id);
  const reads = useOperations(
    'carriers.products',
    ids.map((carrierId) => ({ params: { orgId, carrierId } })),
  );
  // A read that failed, or has not answered yet, leaves that carrier's map empty.
  return useMemo(
    () => new Map(ids.map((carrierId, index) => [carrierId, new Map((reads[index]?.data ?? []).map((product) => [product.productId, product]))] as const)),
    [reads, ids.join(',')],
  );
}
