import type { LimitName, Usage } from '../../../../src-shared/schemas/org';
import { useOperation } from '../../lib/useOperation';
import { humanize } from '../../lib/format';
import { useOrgId } from '../../lib/session';
import { ListError, PageHeader, formatMinor } from './shared';

const limitNames: Record<LimitName, string> = {
  teamMembers: 'Team members',
  carriers: 'Carriers',
  orderChannels: 'Order channels',
  shippingRules: 'Shipping rules',
  senderAddresses: 'Sender addresses',
  apiTokens: 'API tokens',
};

const UNLIMITED = -1;
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** The period runs to the first instant of the next month; people say it ends the day before. */
function periodText(period: Usage['currentPeriod']): string {
  const lastDay = new Date(new Date(period.end).getTime() - 1);
  return `${dateFormat.format(new Date(period.start))} – ${dateFormat.format(lastDay)}`;
}

export function UsageScreen() {
  const orgId = useOrgId();
  const usage = useOperation('billing.usage', { params: { orgId } });
  const org = useOperation('orgs.get', { params: { id: orgId } });
  const currency = org.data?.currency ?? 'DKK';
  return (
    <div className="settings-screen">
      <PageHeader title="Usage">
        <button type="button" onClick={usage.reload} disabled={usage.loading}>
          Refresh
        </button>
      </PageHeader>
      <ListError error={usage.error} onRetry={usage.reload} />
      {usage.data ? (
        <UsageChart usage={usage.data} currency={currency} plan={org.data?.plan} overageEnabled={org.data?.overageEnabled} />
      ) : (
        !usage.error && <p className="loading">Loading…</p>
      )}
    </div>
  );
}

function UsageChart({
  usage,
  currency,
  plan,
  overageEnabled,
}: {
  usage: Usage;
  currency: string;
  plan: string | undefined;
  overageEnabled: boolean | undefined;
}) {
  const { shipments } = usage;
  return (
    <>
      <section className="card" aria-labelledby="usage-shipments">
        <h2 id="usage-shipments">Shipments this month</h2>
        <p className="hint">
          {periodText(usage.currentPeriod)}
          {plan && ` · ${humanize(plan)} plan`}
        </p>
        <ShipmentsBar used={shipments.used} included={shipments.included} overage={shipments.overage} />
        {shipments.overage > 0 ? (
          <p>
            {shipments.overage} shipments over the plan, charged {formatMinor(shipments.overageCharges, currency)}.
          </p>
        ) : shipments.included !== UNLIMITED && shipments.used >= shipments.included ? (
          <p className="usage-warning">
            This month’s shipments are used up.{' '}
            {overageEnabled === false ? 'New shipments are refused until next month, unless extra shipments are allowed under Organization.' : ''}
          </p>
        ) : null}
      </section>

      <section className="card" aria-labelledby="usage-limits">
        <h2 id="usage-limits">Limits of the plan</h2>
        <ul className="usage-bars">
          {(Object.keys(limitNames) as LimitName[]).map((name) => (
            <LimitBar key={name} label={limitNames[name]} used={usage.limits[name].used} limit={usage.limits[name].limit} />
          ))}
        </ul>
      </section>

      <section className="card" aria-labelledby="usage-addons">
        <h2 id="usage-addons">Add-ons</h2>
        {usage.addOns.length === 0 ? (
          <p>No add-ons.</p>
        ) : (
          <table className="plain">
            <thead>
              <tr>
                <th scope="col">Add-on</th>
                <th scope="col">Quantity</th>
                <th scope="col">Price each</th>
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              {usage.addOns.map((addOn, index) => (
                <tr key={`${addOn.type}-${index}`}>
                  <th scope="row">{humanize(addOn.type)}</th>
                  <td>{addOn.quantity}</td>
                  <td>{formatMinor(addOn.unitPrice, currency)}</td>
                  <td>{formatMinor(addOn.totalPrice, currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

const percent = (part: number, whole: number) => `${whole <= 0 ? 0 : Math.min(100, (part / whole) * 100)}%`;

function level(used: number, limit: number): 'ok' | 'near' | 'full' {
  if (limit === UNLIMITED) return 'ok';
  if (used >= limit) return 'full';
  return used >= limit * 0.8 ? 'near' : 'ok';
}

/**
 * Used against included; past it, the overage is drawn in its own colour beyond a mark at the
 * included number. The bar is an image named with the numbers; the text beside it is for the eye.
 */
function ShipmentsBar({ used, included, overage }: { used: number; included: number; overage: number }) {
  const unlimited = included === UNLIMITED;
  const scale = unlimited ? Math.max(used, 1) : Math.max(included, used, 1);
  const withinPlan = unlimited ? used : Math.min(used, included);
  const beyond = unlimited ? 0 : Math.max(0, used - included);
  const name = unlimited ? `Shipments: ${used}, unlimited` : `Shipments: ${used} of ${included} included${overage > 0 ? `, ${overage} over` : ''}`;
  return (
    <div className="usage-row usage-row-large">
      <span className="usage-label" aria-hidden="true">
        Shipments
      </span>
      <div className={`usage-bar usage-${level(used, unlimited ? UNLIMITED : included)}`} role="img" aria-label={name}>
        <div className="usage-fill" style={{ width: percent(withinPlan, scale) }} />
        {beyond > 0 && <div className="usage-fill usage-overage" style={{ width: percent(beyond, scale) }} />}
        {!unlimited && beyond > 0 && <div className="usage-mark" style={{ left: percent(included, scale) }} />}
      </div>
      <span className="usage-value" aria-hidden="true">
        {unlimited ? `${used} (unlimited)` : `${used} of ${included}`}
        {beyond > 0 && ` (+${beyond} over)`}
      </span>
    </div>
  );
}

function LimitBar({ label, used, limit }: { label: string; used: number; limit: number }) {
  const unlimited = limit === UNLIMITED;
  const name = unlimited ? `${label}: ${used}, unlimited` : `${label}: ${used} of ${limit}`;
  return (
    <li className="usage-row">
      <span className="usage-label" aria-hidden="true">
        {label}
      </span>
      <div className={`usage-bar usage-${level(used, limit)}${unlimited ? ' usage-unlimited' : ''}`} role="img" aria-label={name}>
        {!unlimited && <div className="usage-fill" style={{ width: percent(used, limit) }} />}
      </div>
      <span className="usage-value" aria-hidden="true">
        {unlimited ? `${used} · unlimited` : `${used} of ${limit}`}
      </span>
    </li>
  );
}
