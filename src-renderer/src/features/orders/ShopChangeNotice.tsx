import { Fragment, useId, useState } from 'react';
import type { OrderDetail, ShopChange } from '../../../../src-shared/schemas/order';
import { client } from '../../lib/api';
import { useOrgId } from '../../lib/session';
import { formatDateTime } from '../../lib/format';
import { ErrorNotice } from '../../components/ErrorNotice';

const titles: Record<ShopChange['kind'], string> = {
  cancelled: 'Cancelled in the shop',
  changed: 'Changed in the shop',
  closed: 'Fulfilled or archived in the shop',
};

const whyHeld: Record<ShopChange['kind'], string> = {
  cancelled: 'This order already has a shipment here, so the change was not applied.',
  changed: 'This order already has a shipment here, so the change was not applied.',
  closed: 'It may have been shipped another way, or only archived: Shipdesk does not guess.',
};

const applyMeans: Record<ShopChange['kind'], string> = {
  cancelled: 'Apply cancels the order here, with its shipments not yet booked.',
  changed: 'Apply writes the shop’s values below into the order.',
  closed: 'Apply cancels the order here, so it is not shipped from the warehouse too.',
};

function addressLine(address: NonNullable<ShopChange['shop']['shippingAddress']>): string {
  return [address.name, address.company, address.address1, address.address2, `${address.postalCode} ${address.city}`, address.countryCode]
    .filter(Boolean)
    .join(', ');
}

/** The shop's values of what it changed, one row a field. */
function ShopValues({ change }: { change: ShopChange }) {
  const rows: [string, string][] = [];
  const { shop } = change;
  if (shop.customerName !== undefined) rows.push(['Customer name', shop.customerName ?? '(none)']);
  if (shop.customerEmail !== undefined) rows.push(['Customer e-mail', shop.customerEmail ?? '(none)']);
  if (shop.notes !== undefined) rows.push(['Notes', shop.notes ?? '(none)']);
  if (shop.shippingAddress !== undefined) rows.push(['Shipping address', shop.shippingAddress ? addressLine(shop.shippingAddress) : '(none)']);
  if (shop.orderLines) rows.push(['Lines', shop.orderLines.map((line) => `${line.quantity} × ${line.name}${line.sku ? ` (${line.sku})` : ''}`).join('; ')]);
  if (rows.length === 0) return null;
  return (
    <dl className="facts">
      {rows.map(([label, value]) => (
        <Fragment key={label}>
          <dt>{label} in the shop</dt>
          <dd className="pre-line">{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

/**
 * A change the shop made after a shipment of the order existed here: never applied by itself, so
 * the order screen shows it with Apply and Dismiss (docs/api.md 13.15).
 */
export function ShopChangeNotice({ order, canWrite, onDone }: { order: OrderDetail; canWrite: boolean; onDone: () => void }) {
  const orgId = useOrgId();
  const headingId = useId();
  const explainId = useId();
  const [busy, setBusy] = useState<'apply' | 'dismiss' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const change = order.shopChange;
  if (!change) return null;

  const act = async (action: 'apply' | 'dismiss') => {
    setBusy(action);
    setError(null);
    try {
      if (action === 'apply') await client.call('orders.applyShopChange', { params: { orgId, orderId: order.id } });
      else await client.call('orders.dismissShopChange', { params: { orgId, orderId: order.id } });
      onDone();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="card shop-change" aria-labelledby={headingId}>
      <h2 id={headingId}>{titles[change.kind]}</h2>
      <p id={explainId}>
        Seen {formatDateTime(change.detectedAt)}: {change.summary.join(', ')}. {whyHeld[change.kind]} {applyMeans[change.kind]} Dismiss keeps the order as it
        is.
      </p>
      <ShopValues change={change} />
      <ErrorNotice error={error} title="The shop’s change could not be applied" />
      {canWrite && (
        <div className="actions">
          <button type="button" className="primary" onClick={() => void act('apply')} disabled={busy !== null} aria-describedby={explainId}>
            {busy === 'apply' ? 'Applying…' : 'Apply'}
          </button>
          <button type="button" onClick={() => void act('dismiss')} disabled={busy !== null} aria-describedby={explainId}>
            {busy === 'dismiss' ? 'Dismissing…' : 'Dismiss'}
          </button>
        </div>
      )}
    </section>
  );
}
