import { useId } from 'react';
import type { OrderChannel, OrderChannelSyncResult } from '../../../../src-shared/schemas/orderChannel';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FormActions } from '../../components/forms';
import { Progress } from '../../components/Progress';
import { countOf, importedSummary, shopChangesSummary } from './importCounts';
import type { ChannelSyncOutcome, StorefrontSync } from './storefrontSync';

const platformNames: Partial<Record<OrderChannel['type'], string>> = { shopify: 'Shopify', woocommerce: 'WooCommerce' };

/** Shows a storefront sync as it goes ("Syncing Shop A (1 of 2)…") and what each shop brought in. */
export function GetNewOrdersDialog({ open, onClose, sync }: { open: boolean; onClose: () => void; sync: StorefrontSync }) {
  return (
    <Dialog title="Get new orders" open={open} onClose={onClose} wide>
      <div>
        <SyncProgress sync={sync} />
        {sync.outcomes.map((outcome) => (
          <ChannelOutcome key={outcome.channel.id} outcome={outcome} />
        ))}
        <FormActions>
          <button type="button" onClick={onClose} data-autofocus>
            Close
          </button>
        </FormActions>
      </div>
    </Dialog>
  );
}

function SyncProgress({ sync }: { sync: StorefrontSync }) {
  const { current, total, outcomes, running } = sync;
  const failed = outcomes.filter((outcome) => outcome.error).length;
  return (
    <>
      <p role="status">
        {current
          ? `Syncing ${current.channel.name} (${current.position} of ${total})…`
          : running
            ? 'Starting…'
            : failed
              ? `Done: ${outcomes.length - failed} of ${countOf(outcomes.length, 'shop')} read; ${failed} could not be read.`
              : `Done: ${countOf(outcomes.length, 'shop')} read.`}
      </p>
      {running && <Progress label="Shops synced" done={outcomes.length} total={total} />}
    </>
  );
}

function ChannelOutcome({ outcome }: { outcome: ChannelSyncOutcome }) {
  const headingId = useId();
  const { channel, result, error } = outcome;
  return (
    <section aria-labelledby={headingId} className="card">
      <h3 id={headingId}>
        {channel.name} <span className="muted">· {platformNames[channel.type] ?? channel.type}</span>
      </h3>
      <ErrorNotice error={error} />
      {result && <SyncResult channelName={channel.name} result={result} />}
    </section>
  );
}

function SyncResult({ channelName, result }: { channelName: string; result: OrderChannelSyncResult }) {
  return (
    <>
      <p>{importedSummary(result)}</p>
      {shopChangesSummary(result) && <p>{shopChangesSummary(result)}.</p>}
      {result.errors.length > 0 && (
        <div className="problems">
          <p>
            {countOf(result.errors.length, 'shop order')} could not be imported. Fix {result.errors.length === 1 ? 'it' : 'them'} in the shop and get new orders
            again.
          </p>
          <table className="plain" aria-label={`Orders not imported from ${channelName}`}>
            <thead>
              <tr>
                <th scope="col">Shop order id</th>
                <th scope="col">Problem</th>
              </tr>
            </thead>
            <tbody>
              {result.errors.map((orderError, index) => (
                <tr key={`${orderError.externalId}:${index}`}>
                  <td>{orderError.externalId}</td>
                  <td className="wrap">{orderError.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
