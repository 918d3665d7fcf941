import { useId, useState, type FormEvent } from 'react';
import { trackingStatuses, type Shipment, type TrackingStatus } from '../../../../src-shared/schemas/shipment';
import { client } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Field, fieldErrors, FormActions } from '../../components/forms';
import { TrackingBadge, trackingStatusNames } from './tracking';

/**
 * The shipment's tracking (decisions §13): number, link, what the carrier last said and its events,
 * newest first. A carrier that can be asked gets "Check now"; the `local` carrier, which nobody can
 * ask, gets a small form to set the status by hand (delivered by the warehouse's own van).
 */
export function TrackingCard({
  orgId,
  shipment,
  carrierSlug,
  canWrite,
  onChanged,
}: {
  orgId: string;
  shipment: Shipment;
  /** The shipment's carrier type once read; decides between "Check now" and setting the status by hand. */
  carrierSlug: string | undefined;
  canWrite: boolean;
  onChanged: (shipment: Shipment) => void;
}) {
  const tracking = shipment.tracking;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const params = { orgId, shipmentId: shipment.id };
  const followed = shipment.status === 'dispatched' || shipment.status === 'partly_dispatched';

  const refresh = async () => {
    setBusy(true);
    setError(null);
    try {
      onChanged(await client.call('shipments.refreshTracking', { params }));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="tracking-title">
      <h2 id="tracking-title">Tracking</h2>
      {tracking ? (
        <>
          <dl className="facts">
            <dt>Number</dt>
            <dd>
              <code className="tracking-number">{tracking.number}</code>
            </dd>
            <dt>Link</dt>
            <dd>
              {tracking.url ? (
                <a href={tracking.url} target="_blank" rel="noreferrer noopener">
                  {tracking.url}
                </a>
              ) : (
                'The carrier gives no tracking page'
              )}
            </dd>
            <dt>Status</dt>
            <dd>
              <TrackingBadge status={tracking.status} />
            </dd>
            <dt>Last checked</dt>
            <dd>{tracking.lastCheckedAt ? formatDateTime(tracking.lastCheckedAt) : 'Not yet'}</dd>
          </dl>
          {canWrite && followed && carrierSlug && carrierSlug !== 'local' && (
            <p>
              <button type="button" onClick={() => void refresh()} disabled={busy}>
                {busy ? 'Checking…' : 'Check now'}
              </button>
            </p>
          )}
          <ErrorNotice error={error} title="The carrier could not be asked" />
          {tracking.events.length > 0 ? (
            <ol className="tracking-events" aria-label="Tracking events, newest first">
              {tracking.events.map((event) => (
                <li key={`${event.at}|${event.code}|${event.description}`}>
                  <time dateTime={event.at}>{formatDateTime(event.at)}</time> {event.description}
                  {event.location && <span className="muted"> — {event.location}</span>}
                </li>
              ))}
            </ol>
          ) : (
            <p className="muted">No tracking events yet.</p>
          )}
          {canWrite && followed && carrierSlug === 'local' && <ManualTrackingForm orgId={orgId} shipment={shipment} onChanged={onChanged} />}
        </>
      ) : (
        <p className="muted">No tracking number yet. It comes with the booking.</p>
      )}
    </section>
  );
}

/** Own deliveries: nobody else knows where the van is, so the packer says what happened. */
function ManualTrackingForm({ orgId, shipment, onChanged }: { orgId: string; shipment: Shipment; onChanged: (shipment: Shipment) => void }) {
  const [status, setStatus] = useState<TrackingStatus>(shipment.tracking?.status === 'pending' ? 'delivered' : (shipment.tracking?.status ?? 'delivered'));
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const headingId = useId();
  const errors = fieldErrors(error);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onChanged(await client.call('shipments.addTrackingEvent', { params: { orgId, shipmentId: shipment.id }, body: { status, description } }));
      setDescription('');
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="manual-tracking" aria-labelledby={headingId} onSubmit={(event) => void submit(event)}>
      <h3 id={headingId}>Set the status by hand</h3>
      <ErrorNotice error={error} />
      <Field label="New status" error={errors.status}>
        <select value={status} onChange={(event) => setStatus(event.target.value as TrackingStatus)}>
          {trackingStatuses.map((option) => (
            <option key={option} value={option}>
              {trackingStatusNames[option]}
            </option>
          ))}
        </select>
      </Field>
      <Field label="What happened" error={errors.description} hint="e.g. Delivered by our own van, signed by J. Hansen">
        <input type="text" value={description} required maxLength={500} onChange={(event) => setDescription(event.target.value)} />
      </Field>
      <FormActions>
        <button type="submit" className="primary" disabled={busy || description.trim() === ''}>
          {busy ? 'Saving…' : 'Save status'}
        </button>
      </FormActions>
    </form>
  );
}
