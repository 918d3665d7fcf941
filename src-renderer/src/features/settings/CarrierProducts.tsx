import { useState } from 'react';
import type { AvailableCarrier, Carrier } from '../../../../src-shared/schemas/carrier';
import { ErrorNotice } from '../../components/ErrorNotice';
import { client } from '../../lib/api';
import { hasTestMode } from '../../lib/carrierTestMode';
import { useOperation } from '../../lib/useOperation';
import { useOrgId } from '../../lib/session';

/**
 * What a configured carrier can book: its products, their services and label sizes. A carrier
 * reached over the network can have them read again (Karrio's services of the connection, kept with
 * the carrier so they work offline; decisions §13).
 */
export function CarrierProducts({ carrier, entry, canWrite = false }: { carrier: Carrier; entry?: AvailableCarrier | undefined; canWrite?: boolean }) {
  const orgId = useOrgId();
  const products = useOperation('carriers.products', { params: { orgId, carrierId: carrier.id } });
  const [refreshing, setRefreshing] = useState(false);
  const [refreshError, setRefreshError] = useState<unknown>(null);
  const [refreshed, setRefreshed] = useState<number | null>(null);
  const refresh = async () => {
    setRefreshing(true);
    setRefreshError(null);
    setRefreshed(null);
    try {
      const read = await client.call('carriers.refreshProducts', { params: { orgId, carrierId: carrier.id } });
      setRefreshed(read.length);
      products.reload();
    } catch (error) {
      setRefreshError(error);
    } finally {
      setRefreshing(false);
    }
  };
  return (
    <>
      {canWrite && hasTestMode(entry) && (
        <div className="actions">
          <button type="button" onClick={() => void refresh()} disabled={refreshing}>
            {refreshing ? 'Reading products…' : 'Refresh products'}
          </button>
          <span role="status">{refreshed !== null && `${refreshed} product${refreshed === 1 ? '' : 's'} read from ${carrier.name}.`}</span>
        </div>
      )}
      <ErrorNotice error={refreshError} title={`The products could not be read from ${carrier.name}; the ones kept before still apply`} />
      <ProductTable carrier={carrier} products={products} />
    </>
  );
}

function ProductTable({ carrier, products }: { carrier: Carrier; products: ReturnType<typeof useOperation<'carriers.products'>> }) {
  if (products.error) return <ErrorNotice error={products.error} />;
  if (!products.data) return <p className="loading">Loading products…</p>;
  if (products.data.length === 0) return <p>This carrier offers no products.</p>;
  return (
    <table className="plain products-table">
      <caption className="visually-hidden">Products of {carrier.name}</caption>
      <thead>
        <tr>
          <th scope="col">Product</th>
          <th scope="col">Direction</th>
          <th scope="col">Services</th>
          <th scope="col">Label sizes</th>
        </tr>
      </thead>
      <tbody>
        {products.data.map((product) => (
          <tr key={product.productId}>
            <th scope="row">
              {product.name}
              <br />
              <small className="hint">
                <code>{product.productId}</code> · {product.description}
              </small>
            </th>
            <td>{product.type === 'inbound' ? 'Return (inbound)' : 'Outbound'}</td>
            <td>{product.services.length > 0 ? product.services.map((service) => service.name).join(', ') : 'None'}</td>
            <td>{product.labelSizes.join(', ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
