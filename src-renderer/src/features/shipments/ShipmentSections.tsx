import type { Party, Shipment } from '../../../../src-shared/schemas/shipment';
import type { CarrierProduct } from '../../../../src-shared/schemas/carrier';
import { printedCompany } from '../../../../src-shared/partyCompany';
import { formatDateTime, formatWeight, humanize } from '../../lib/format';
import { Link } from '../../app/router';
import { serviceNamesOf } from './productNames';
import { usePrintJobs } from '../printing/usePrintJobs';
import { openProblems, problemText } from './shipmentProblems';

/** The read-only parts of the shipment detail, one small component each. */

export function FactsCard({
  shipment,
  carrierName,
  product,
  orderNumber,
}: {
  shipment: Shipment;
  carrierName: string;
  product: CarrierProduct | undefined;
  /** The order's number once read; until then (or if it cannot be read) the order's id is shown. */
  orderNumber?: string | undefined;
}) {
  const services = serviceNamesOf(product, shipment.carrierSettings.services);
  const pickup = shipment.pickupDetails;
  return (
    <section className="card" aria-labelledby="facts-title">
      <h2 id="facts-title">Shipment</h2>
      <dl className="facts">
        <dt>Reference</dt>
        <dd>{shipment.reference}</dd>
        <dt>Type</dt>
        <dd>{humanize(shipment.type)}</dd>
        <dt>Carrier</dt>
        <dd>{carrierName}</dd>
        <dt>Product</dt>
        <dd>{product?.name ?? shipment.carrierSettings.productId}</dd>
        <dt>Services</dt>
        <dd>{services.length > 0 ? services.join(', ') : 'None'}</dd>
        <dt>Term of trade</dt>
        <dd>{shipment.termOfTrade}</dd>
        {shipment.shippingRule && (
          <>
            <dt>Shipping rule</dt>
            <dd>{shipment.shippingRule.name}</dd>
          </>
        )}
        {shipment.servicePointId && (
          <>
            <dt>Service point</dt>
            <dd>{shipment.servicePointId}</dd>
          </>
        )}
        {pickup && (
          <>
            <dt>Pickup</dt>
            <dd>
              {pickup.date} {pickup.from}–{pickup.to}
              {pickup.instruction && <> · {pickup.instruction}</>}
            </dd>
          </>
        )}
        {shipment.orderId && (
          <>
            <dt>Order</dt>
            <dd>
              <Link to={`/orders/${encodeURIComponent(shipment.orderId)}`}>{orderNumber ? `Order ${orderNumber}` : shipment.orderId}</Link>
            </dd>
          </>
        )}
        <dt>Created</dt>
        <dd>{formatDateTime(shipment.createdAt)}</dd>
        <dt>Updated</dt>
        <dd>{formatDateTime(shipment.updatedAt)}</dd>
      </dl>
    </section>
  );
}

/**
 * What still needs someone on this shipment. An automatic print that failed and has printed since
 * (Retry, another printer) is no longer one (openProblems): the box goes when nothing is left.
 */
export function ErrorsCard({ orgId, shipment }: { orgId: string; shipment: Shipment }) {
  // The same read as the Print jobs card (the read cache shares it), kept fresh by print pushes.
  const jobs = usePrintJobs(orgId, { shipmentId: shipment.id, limit: 100 }).data?.data;
  const open = openProblems(shipment.errors, jobs);
  if (open.length === 0) return null;
  return (
    <section className="card card-bad" aria-labelledby="errors-title">
      <h2 id="errors-title">Problems</h2>
      <ul>
        {open.map((error) => (
          <li key={error.id}>
            {problemText(error, shipment, jobs)} <code>{error.code}</code> <small className="muted">{formatDateTime(error.createdAt)}</small>
          </li>
        ))}
      </ul>
    </section>
  );
}

function PartyAddress({ party }: { party: Party }) {
  const company = printedCompany(party);
  return (
    <address>
      <strong>{party.name}</strong>
      {company && <> · {company}</>}
      {party.attention && <> · Att. {party.attention}</>}
      <br />
      {party.address1}
      {party.address2 && (
        <>
          <br />
          {party.address2}
        </>
      )}
      <br />
      {party.postalCode} {party.city} · {party.countryCode}
      {(party.phone || party.email) && (
        <>
          <br />
          {[party.phone, party.email].filter(Boolean).join(' · ')}
        </>
      )}
    </address>
  );
}

export function PartiesCard({ shipment }: { shipment: Shipment }) {
  return (
    <section className="card" aria-labelledby="parties-title">
      <h2 id="parties-title">Parties</h2>
      {shipment.parties.length === 0 ? (
        <p className="muted">No parties yet.</p>
      ) : (
        <div className="parties">
          {shipment.parties.map((party, index) => (
            <div key={`${party.type}-${index}`}>
              <h3>{humanize(party.type)}</h3>
              <PartyAddress party={party} />
            </div>
          ))}
        </div>
      )}
    </section>
  );
}

export function ParcelsCard({
  shipment,
  onSplit,
  onBatchSplit,
}: {
  shipment: Shipment;
  onSplit?: (parcelId: string) => void;
  onBatchSplit?: (parcelId: string) => void;
}) {
  return (
    <section className="card" aria-labelledby="parcels-title">
      <h2 id="parcels-title">Parcels</h2>
      {shipment.parcels.length === 0 && <p className="muted">No parcels yet.</p>}
      {shipment.parcels.map((parcel, index) => (
        <div key={parcel.id} className="parcel">
          <div className="card-header">
            <h3>
              Parcel {index + 1} · {formatWeight(parcel.weight, parcel.weightUnit)} · {dimensionsText(parcel.dimensions)}
            </h3>
            {(onSplit || onBatchSplit) && parcel.orderLines.length > 0 && (
              <div className="actions">
                {onSplit && (
                  <button type="button" onClick={() => onSplit(parcel.id)} aria-label={`Split parcel ${index + 1}…`}>
                    Split…
                  </button>
                )}
                {onBatchSplit && (
                  <button type="button" onClick={() => onBatchSplit(parcel.id)} aria-label={`Batch split parcel ${index + 1}…`}>
                    Batch split…
                  </button>
                )}
              </div>
            )}
          </div>
          {parcel.orderLines.length === 0 ? (
            <p className="muted">No order lines in this parcel.</p>
          ) : (
            <table className="plain" aria-label={`Order lines of parcel ${index + 1}`}>
              <thead>
                <tr>
                  <th scope="col">SKU</th>
                  <th scope="col">Description</th>
                  <th scope="col" className="numeric">
                    Quantity
                  </th>
                  <th scope="col" className="numeric">
                    Unit price
                  </th>
                  <th scope="col">Origin</th>
                  <th scope="col">Tariff number</th>
                  <th scope="col" className="numeric">
                    Net kg per unit
                  </th>
                </tr>
              </thead>
              <tbody>
                {parcel.orderLines.map((line) => (
                  <tr key={line.id}>
                    <td>
                      <code>{line.sku}</code>
                    </td>
                    <td className="wrap">{line.description}</td>
                    <td className="numeric">{line.quantity}</td>
                    <td className="numeric">{line.currency ? `${line.unitPrice} ${line.currency}` : line.unitPrice || ''}</td>
                    <td>{line.countryOfOrigin}</td>
                    <td>{line.tarrifNumber}</td>
                    <td className="numeric">{line.weight ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      ))}
    </section>
  );
}

export function ActivitiesCard({ shipment }: { shipment: Shipment }) {
  return (
    <section className="card" aria-labelledby="activities-title">
      <h2 id="activities-title">Activity</h2>
      <ol className="activities">
        {[...shipment.activities].reverse().map((activity) => (
          <li key={activity.id}>
            <time dateTime={activity.createdAt}>{formatDateTime(activity.createdAt)}</time> <strong>{humanize(activity.action)}</strong> {activity.description}
          </li>
        ))}
      </ol>
    </section>
  );
}

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** The carrier calls made for the shipment (secrets masked by the server); for support, so folded away. */
export function CarrierLogs({ shipment }: { shipment: Shipment }) {
  if (shipment.logs.length === 0) return null;
  return (
    <details className="card logs">
      <summary>
        <h2>Carrier logs ({shipment.logs.length})</h2>
      </summary>
      {shipment.logs.map((log) => (
        <details key={log.id} className="log">
          <summary>
            {formatDateTime(log.createdAt)} · {humanize(log.direction)} · {log.statusCode ?? 'no status'}
            {log.duration !== null && <> · {log.duration} ms</>}
            {log.error && <span className="job-error"> · {log.error}</span>}
          </summary>
          <h3>Request</h3>
          <pre>{asText(log.request)}</pre>
          <h3>Response</h3>
          <pre>{asText(log.response)}</pre>
        </details>
      ))}
    </details>
  );
}

/** "30 × 20 × 10 cm"; a parcel whose measures were never given (all 0) says so instead of "0 × 0 × 0 cm". */
function dimensionsText({ length, width, height }: { length: number; width: number; height: number }): string {
  return length === 0 && width === 0 && height === 0 ? 'no measures given' : `${length} × ${width} × ${height} cm`;
}
