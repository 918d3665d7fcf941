import { useMemo } from 'react';
import type { CarrierProduct } from '../../../../src-shared/schemas/carrier';
import { client, useLoad } from '../../lib/api';

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
  const loaded = useLoad(
    () =>
      Promise.all(
        ids.map(async (carrierId) => {
          try {
            const products = await client.call('carriers.products', { params: { orgId, carrierId } });
            return [carrierId, new Map(products.map((product) => [product.productId, product]))] as const;
          } catch {
            return [carrierId, new Map<string, CarrierProduct>()] as const;
          }
        }),
      ),
    `product-names:${orgId}:${ids.join(',')}`,
  );
  return useMemo(() => new Map(loaded.data ?? []), [loaded.data]);
}
