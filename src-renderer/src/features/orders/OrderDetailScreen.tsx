import { useId, useState } from 'react';
import type { OrderDetail } from '../../../../src-shared/schemas/order';
import { client } from '../../lib/api';
import { useOperation } from '../../lib/useOperation';
import { useOrgId } from '../../lib/session';
import { formatDateTime, formatWeight } from '../../lib/format';
import { Link, navigate } from '../../app/router';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ReadOnlyNote, useCanWrite } from '../../lib/permissions';
import { ErrorNotice } from '../../components/ErrorNotice';
import { StatusBadge } from '../../components/StatusBadge';
import { useCarriers } from '../../components/CarrierPicker';
import { CarrierTestBadgeById } from '../../components/TestModeBadge';
import { productName, serviceNames, useProductNames, type ProductNames } from '../shipments/productNames';
import { CreateShipmentDialog } from './CreateShipmentDialog';
import { CancelOrderDialog } from './CancelOrderDialog';
import { EditOrderDialog } from './OrderForm';
import { formatMoney } from './money';
import { PickListDialog } from './PickListDialog';
import { ShopWriteBackCard } from './ShopWriteBackCard';
import { ShopChangeNotice } from './ShopChangeNotice';

/** `/orders/:orderId`: the order, its lines and shipments, and the way to a new shipment. */
export function OrderDetailScreen({ orderId }: { orderId: string }) {
  const orgId = useOrgId();
  const order = useOperation('orders.get', { params: { orgId, orderId } });
  // Loaded once for the rule card and the shipments table, which both name carriers and products.
  const carriers = useCarriers();
  const products = useProductNames(orgId, carriers.data?.data);
  const names: CarrierNames = {
    carrier: (id) => carriers.data?.data.find((carrier) => carrier.id === id)?.name ?? id,
    products,
  };
  const [dialog, setDialog] = useState<'shipment' | 'edit' | 'cancel' | 'delete' | 'packingSlip' | null>(null);
  const noShipmentId = useId();
  // A viewer reads the order; making shipments from it and changing it are for other roles.
  const canShip = useCanWrite('shipments');
  const canWrite = useCanWrite('orders');

  if (!order.data) {
    return (
      <section>
        <p>
          <Link to="/orders">← Orders</Link>
        </p>
        {order.error ? <ErrorNotice error={order.error} /> : <p className="loading">Loading the order…</p>}
      </section>
    );
  }
  const data = order.data;
  const closed = data.status === 'cancelled' || data.status === 'fulfilled';
  const noShipment = whyNoShipment(data);
  // The server deletes only an order no shipment refers to (a cancelled one or a return included):
  // one typed in by mistake. Any other is cancelled instead, and keeps its history.
  const deletable = data.shipments.length === 0;
  const remove = async () => {
    await client.call('orders.delete', { params: { orgId, orderId } });
    navigate('/orders');
  };

  return (
    <section aria-labelledby="order-title" className="order-detail">
      <p>
        <Link to="/orders">← Orders</Link>
      </p>
      <header className="page-header">
        <h1 id="order-title">
          Order {data.orderNumber} <StatusBadge status={data.status} />
        </h1>
        <div className="actions">
          {canShip && (
            <button
              type="button"
              className="primary"
              onClick={() => setDialog('shipment')}
              disabled={noShipment !== null}
              aria-describedby={noShipment ? noShipmentId : undefined}
            >
              Create shipment
            </button>
          )}
          {canWrite && (
            <>
              <button type="button" onClick={() => setDialog('edit')} disabled={closed}>
                Edit order
              </button>
              <button type="button" className="danger" onClick={() => setDialog('cancel')} disabled={closed}>
                Cancel order
              </button>
            </>
          )}
          <button type="button" onClick={() => setDialog('packingSlip')}>
            Packing slip…
          </button>
          {canWrite && deletable && (
            <button type="button" className="danger" onClick={() => setDialog('delete')}>
              Delete order
            </button>
          )}
        </div>
      </header>
      {!canWrite && <ReadOnlyNote what="orders" />}
      {canShip && noShipment && (
        <p id={noShipmentId} className="muted">
          {noShipment}
        </p>
      )}
      {/* A failed reload keeps the order on screen and says so. */}
      <ErrorNotice error={order.error} title="The order could not be refreshed" />
      <ShopChangeNotice order={data} canWrite={canWrite} onDone={order.reload} />

      <div className="grid-2">
        <OrderFacts order={data} />
        <AddressCard order={data} />
      </div>
      <OrderLines order={data} />
      <RuleCard order={data} names={names} />
      <OrderShipments order={data} names={names} />
      <ShopWriteBackCard order={data} />
      {data.notes && (
        <div className="card">
          <h2>Notes</h2>
          <p className="pre-line">{data.notes}</p>
        </div>
      )}

      <CreateShipmentDialog order={data} open={dialog === 'shipment'} onClose={() => setDialog(null)} />
      <PickListDialog
        kind="packingSlips"
        open={dialog === 'packingSlip'}
        onClose={() => setDialog(null)}
        selectedIds={[data.id]}
        selectionLabel={`Order ${data.orderNumber}`}
      />
      <CancelOrderDialog order={data} open={dialog === 'cancel'} onClose={() => setDialog(null)} onCancelled={order.reload} />
      <ConfirmDialog
        open={dialog === 'delete'}
        title={`Delete order ${data.orderNumber}?`}
        confirmLabel="Delete order"
        onConfirm={remove}
        onCancel={() => setDialog(null)}
        message={<p>The order and its lines are removed for good. No shipment was made from it.</p>}
      />
      {/* Mounted when opened, so it starts from the order as it is now. */}
      {dialog === 'edit' && <EditOrderDialog order={data} open onClose={() => setDialog(null)} onSaved={order.reload} />}
    </section>
  );
}

/**
 * Why no shipment can be made from the order, or null when one can (decisions §5: the server answers
 * 409 when nothing is left). Lines placed in shipments not yet sent are not known here; the server
 * still says so when the dialog asks.
 */
function whyNoShipment(order: OrderDetail): string | null {
  if (order.status === 'cancelled') return 'The order is cancelled, so nothing more is shipped.';
  if (order.status === 'fulfilled') return 'Everything in this order is shipped: no line is left for a new shipment.';
  if (!order.orderLines.some((line) => line.requiresShipping)) return 'No line of this order needs shipping.';
  return null;
}

function OrderFacts({ order }: { order: OrderDetail }) {
  return (
    <div className="card">
      <h2>Customer</h2>
      <dl className="facts">
        <dt>Name</dt>
        <dd>{order.customerName ?? '—'}</dd>
        <dt>Email</dt>
        <dd>{order.customerEmail ?? '—'}</dd>
        <dt>Channel</dt>
        <dd>
          {order.orderChannel.name} ({order.orderChannel.type})
        </dd>
        {order.externalId && (
          <>
            <dt>External id</dt>
            <dd>{order.externalId}</dd>
          </>
        )}
        {order.servicePointId && (
          <>
            <dt>Service point</dt>
            <dd>{order.servicePointId}</dd>
          </>
        )}
        <dt>Total</dt>
        <dd>{formatMoney(order.totalAmount, order.currency)}</dd>
        <dt>Created</dt>
        <dd>{formatDateTime(order.createdAt)}</dd>
        <dt>Updated</dt>
        <dd>{formatDateTime(order.updatedAt)}</dd>
      </dl>
    </div>
  );
}

function AddressCard({ order }: { order: OrderDetail }) {
  const address = order.shippingAddress;
  return (
    <div className="card">
      <h2>Shipping address</h2>
      {address ? (
        <address>
          {[
            address.name,
            address.company,
            address.attention && `Att. ${address.attention}`,
            address.address1,
            address.address2,
            `${address.postalCode} ${address.city}`,
            address.province,
            address.countryCode,
          ]
            .filter(Boolean)
            .map((part, index) => (
              <span key={index} className="address-line">
                {part}
              </span>
            ))}
          {address.phone && <span className="address-line">Phone {address.phone}</span>}
          {address.email && <span className="address-line">{address.email}</span>}
        </address>
      ) : (
        <p className="muted">No shipping address: a shipment needs a receiver, so add one before shipping.</p>
      )}
    </div>
  );
}

function OrderLines({ order }: { order: OrderDetail }) {
  return (
    <div className="card">
      <h2>Lines</h2>
      <div className="table-scroll">
        <table className="plain">
          <caption className="visually-hidden">Order lines</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">SKU</th>
              <th scope="col">Bin</th>
              <th scope="col" className="numeric">
                Quantity
              </th>
              <th scope="col" className="numeric">
                Weight per unit
              </th>
              <th scope="col" className="numeric">
                Unit price
              </th>
              <th scope="col">HS code</th>
              <th scope="col">Origin</th>
              <th scope="col">Ships</th>
            </tr>
          </thead>
          <tbody>
            {order.orderLines.map((line) => (
              <tr key={line.id}>
                <td>{line.name}</td>
                <td>{line.sku ?? '—'}</td>
                <td>{line.location ?? '—'}</td>
                <td className="numeric">{line.quantity}</td>
                <td className="numeric">{line.weight === null ? '—' : formatWeight(line.weight, line.weightUnit ?? 'kg')}</td>
                <td className="numeric">{formatMoney(line.unitPrice, line.currency)}</td>
                <td>{line.hsCode ?? '—'}</td>
                <td>{line.countryOfOrigin ?? '—'}</td>
                <td>{line.requiresShipping ? 'Yes' : 'No'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** The organization's carriers and their products by name, for the cards below (ids until loaded). */
interface CarrierNames {
  carrier: (carrierId: string) => string;
  products: ProductNames;
}

function RuleCard({ order, names }: { order: OrderDetail; names: CarrierNames }) {
  const rule = order.shippingRule;
  return (
    <div className="card">
      <h2>Shipping rule</h2>
      {rule ? (
        <dl className="facts">
          <dt>Rule</dt>
          <dd>{rule.name}</dd>
          <dt>Carrier</dt>
          <dd>
            {names.carrier(rule.carrierId)} · {productName(names.products, rule.carrierId, rule.productId)}
          </dd>
          <dt>Services</dt>
          <dd>{rule.services.length ? serviceNames(names.products, rule.carrierId, rule.productId, rule.services).join(', ') : 'None'}</dd>
        </dl>
      ) : (
        <p className="muted">No rule is set on this order: a shipment made “by rule” uses the cheapest shipping rule that matches the address and weight.</p>
      )}
    </div>
  );
}

function OrderShipments({ order, names }: { order: OrderDetail; names: CarrierNames }) {
  return (
    <div className="card">
      <h2>Shipments</h2>
      {order.shipments.length === 0 ? (
        <p className="muted">No shipments yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="plain">
            <caption className="visually-hidden">Shipments of this order</caption>
            <thead>
              <tr>
                <th scope="col">Reference</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col">Carrier</th>
                <th scope="col">Tracking</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {order.shipments.map((shipment) => (
                <tr key={shipment.id}>
                  <td>
                    <Link to={`/shipments/${shipment.id}`}>{shipment.reference}</Link>
                  </td>
                  <td>{shipment.type === 'inbound' ? 'Inbound' : 'Outbound'}</td>
                  <td>
                    <StatusBadge status={shipment.status} />
                  </td>
                  <td>
                    <CarrierTestBadgeById carrierId={shipment.carrierSettings.carrierId} /> {names.carrier(shipment.carrierSettings.carrierId)} ·{' '}
                    {productName(names.products, shipment.carrierSettings.carrierId, shipment.carrierSettings.productId)}
                  </td>
                  <td>{shipment.tracking?.number ?? '—'}</td>
                  <td>{formatDateTime(shipment.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
