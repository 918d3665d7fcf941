import { useState } from 'react';
import type { OrderDetail } from '../../../../src-shared/schemas/order';
import type { ShopFulfillmentRead } from '../../../../src-shared/schemas/shopFulfillment';
import { client } from '../../lib/api';
import { useOperation } from '../../lib/useOperation';
import { formatDateTime } from '../../lib/format';
import { useCanWrite } from '../../lib/permissions';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Link } from '../../app/router';

const shopName = { shopify: 'Shopify', woocommerce: 'WooCommerce' } as const;

/** What the shop was told about one shipment, in plain words. */
function stateText(item: ShopFulfillmentRead): string {
  const shop = shopName[item.platform];
  switch (item.status) {
    case 'sent':
      return `Sent to ${shop} at ${item.sentAt ? formatDateTime(item.sentAt) : '—'} (tracking number ${item.sentTrackingNumber ?? '—'}).`;
    case 'sending':
      return `Being sent to ${shop} now.`;
    case 'queued':
      return item.lastError
        ? `Not sent yet: ${item.lastError} Trying again${item.nextAttemptAt ? ` at ${formatDateTime(item.nextAttemptAt)}` : ''} (attempt ${item.attempts} of ${item.maxAttempts} done).`
        : `Waiting to be sent to ${shop}.`;
    case 'failed':
      return `Not sent to ${shop}: ${item.lastError ?? 'the shop refused it.'}`;
  }
}

/**
 * Issue 22: for an order from a shop, what the shop was told about each dispatched shipment
 * ("Sent to Shopify at …", waiting, or the shop's error), with a Retry button once the last
 * attempt has failed. The outcome of a retry is announced to screen readers.
 */
export function ShopWriteBackCard({ order }: { order: OrderDetail }) {
  const isShop = order.orderChannel.type === 'shopify' || order.orderChannel.type === 'woocommerce';
  const read = useOperation('shopFulfillments.list', isShop ? { params: { orgId: order.orgId, orderId: order.id } } : null);
  const canWrite = useCanWrite('orders');
  const [busy, setBusy] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  if (!isShop) return null;
  const items = read.data?.items ?? [];

  const retry = async (item: ShopFulfillmentRead) => {
    setBusy(item.id);
    setError(null);
    setSaid(null);
    try {
      await client.call('shopFulfillments.retry', { params: { orgId: order.orgId, orderId: order.id, shopFulfillmentId: item.id } });
      setSaid(`Shipment ${item.shipmentReference} is queued to be sent to ${shopName[item.platform]} again.`);
      read.reload();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="card" aria-labelledby="shop-write-back-title">
      <h2 id="shop-write-back-title">Told to the shop</h2>
      <ErrorNotice error={read.error} title="What the shop was told could not be read" />
      {read.data && items.length === 0 && <p className="muted">Nothing yet: the shop is told when a shipment of this order is sent.</p>}
      {items.length > 0 && (
        <ul className="doc-list">
          {items.map((item) => (
            <li key={item.id}>
              <Link to={`/shipments/${item.shipmentId}`}>{item.shipmentReference}</Link>: <span>{stateText(item)}</span>{' '}
              {item.status === 'failed' && canWrite && (
                <button
                  type="button"
                  onClick={() => void retry(item)}
                  disabled={busy !== null}
                  aria-label={`Retry sending shipment ${item.shipmentReference} to ${shopName[item.platform]}`}
                >
                  {busy === item.id ? 'Retrying…' : 'Retry'}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <ErrorNotice error={error} title="The retry could not be queued" />
      <p role="status" className="muted">
        {said}
      </p>
    </section>
  );
}
