import type { Carrier } from '../../../../src-shared/schemas/carrier';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useOperation } from '../../lib/useOperation';
import { useOrgId } from '../../lib/session';

/** What a configured carrier can book: its products, their services and label sizes. */
export function CarrierProducts({ carrier }: { carrier: Carrier }) {
  const orgId = useOrgId();
  const products = useOperation('carriers.products', { params: { orgId, carrierId: carrier.id } });
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
