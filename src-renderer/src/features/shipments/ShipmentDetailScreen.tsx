import { useEffect, useRef, useState } from 'react';
import type { Shipment } from '../../../../src-shared/schemas/shipment';
import { useOperation } from '../../lib/useOperation';
import { useOrgId } from '../../lib/session';
import { Link } from '../../app/router';
import { CarrierTestBadge } from '../../components/TestModeBadge';
import { ErrorNotice } from '../../components/ErrorNotice';
import { StatusBadge } from '../../components/StatusBadge';
import { BatchSplitDialog, SplitDialog } from '../split/SplitDialogs';
import { ShipmentActions } from './ShipmentActions';
import { ReturnDialog } from './ReturnDialog';
import { DocumentsCard } from './DocumentsCard';
import { PrintJobsCard } from '../printing/PrintJobsCard';
import { canSplit } from './lifecycle';
import { ReadOnlyNote, useCanWrite } from '../../lib/permissions';
import { ActivitiesCard, CarrierLogs, ErrorsCard, FactsCard, ParcelsCard, PartiesCard } from './ShipmentSections';
import { TrackingCard } from './TrackingCard';

/** `/shipments/:shipmentId` */
export function ShipmentDetailScreen({ shipmentId }: { shipmentId: string }) {
  const orgId = useOrgId();
  // Through the read cache: a status change pushed by main (a send from another station) reads it again.
  const loaded = useOperation('shipments.get', { params: { orgId, shipmentId } });
  // An action's answer is shown at once; null means "as last read".
  const [fresh, setFresh] = useState<Shipment | null>(null);
  // A newer read replaces the action's answer; until it arrives the answer stays (no flicker back).
  useEffect(() => setFresh(null), [loaded.data]);
  const shipment = fresh ?? loaded.data;
  if (!shipment) {
    return loaded.error ? <ErrorNotice error={loaded.error} title="The shipment could not be loaded" /> : <p className="loading">Loading the shipment…</p>;
  }
  const onChanged = (next: Shipment | null) => {
    if (next) setFresh(next);
    else loaded.reload();
  };
  return <ShipmentDetail orgId={orgId} shipment={shipment} onChanged={onChanged} />;
}

function ShipmentDetail({ orgId, shipment, onChanged }: { orgId: string; shipment: Shipment; onChanged: (next: Shipment | null) => void }) {
  const { carrierId } = shipment.carrierSettings;
  const carrier = useOperation('carriers.get', { params: { orgId, carrierId } });
  const products = useOperation('carriers.products', { params: { orgId, carrierId } });
  const product = products.data?.find((candidate) => candidate.productId === shipment.carrierSettings.productId);
  const { orderId } = shipment;
  // The order's number is what people know it by; the id stands in while it loads or if it cannot be read.
  const order = useOperation('orders.get', orderId ? { params: { orgId, orderId } } : null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [madeReturn, setMadeReturn] = useState<Shipment | null>(null);
  // Closing a split dialog keeps it mounted (open: false), so reopening it finds what was typed.
  const [split, setSplit] = useState<{ kind: 'one' | 'batch'; parcelId: string; open: boolean } | null>(null);
  const [splitResult, setSplitResult] = useState<Shipment[] | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  // Focus lands on the title, so a screen reader names the shipment and Tab reaches the actions next.
  useEffect(() => heading.current?.focus(), [shipment.id]);
  // Send, Put on hold, Release … replace their own button with the new status's actions, which drops
  // focus to the page: it goes to the title, which says the new status, and Tab reaches the actions.
  useEffect(() => {
    if (!document.activeElement || document.activeElement === document.body) heading.current?.focus();
  }, [shipment.status]);

  // A viewer reads the shipment; its actions and splits are for roles that may change it.
  const canWrite = useCanWrite('shipments');
  const splittable = canWrite && canSplit(shipment.status);
  return (
    <article className="shipment-detail" aria-labelledby="shipment-title">
      <header className="page-header">
        <h1 id="shipment-title" ref={heading} tabIndex={-1}>
          Shipment {shipment.reference} <StatusBadge status={shipment.status} />
          {carrier.data && <CarrierTestBadge carrier={carrier.data} />}
        </h1>
        {canWrite && <ShipmentActions orgId={orgId} shipment={shipment} onChanged={onChanged} onError={setActionError} onReturn={setMadeReturn} />}
      </header>
      {!canWrite && <ReadOnlyNote what="shipments" />}
      <p className="breadcrumbs">
        <Link to="/shipments">← All shipments</Link>
      </p>
      <ErrorNotice error={actionError} />
      {shipment.returnForShipmentId && (
        <p className="notice">
          Return of <Link to={`/shipments/${encodeURIComponent(shipment.returnForShipmentId)}`}>the outbound shipment</Link>.
        </p>
      )}
      {splitResult && (
        <div className="notice" role="status">
          Split done. New shipment{splitResult.length === 1 ? '' : 's'}:{' '}
          {splitResult.map((made, index) => (
            <span key={made.id}>
              {index > 0 && ', '}
              <Link to={`/shipments/${encodeURIComponent(made.id)}`}>{made.reference}</Link>
            </span>
          ))}
        </div>
      )}
      <ErrorsCard orgId={orgId} shipment={shipment} />
      <div className="grid-2">
        <FactsCard
          shipment={shipment}
          carrierName={carrier.data?.name ?? carrierId}
          product={product}
          orderNumber={order.data?.id === orderId ? order.data?.orderNumber : undefined}
        />
        <TrackingCard orgId={orgId} shipment={shipment} carrierSlug={carrier.data?.carrierSlug} canWrite={canWrite} onChanged={onChanged} />
      </div>
      <DocumentsCard orgId={orgId} shipment={shipment} onPrinted={() => onChanged(null)} />
      <PrintJobsCard orgId={orgId} shipment={shipment} onChanged={() => onChanged(null)} />
      <PartiesCard shipment={shipment} />
      <ParcelsCard
        shipment={shipment}
        onSplit={splittable ? (parcelId) => setSplit({ kind: 'one', parcelId, open: true }) : undefined}
        onBatchSplit={splittable ? (parcelId) => setSplit({ kind: 'batch', parcelId, open: true }) : undefined}
      />
      <ActivitiesCard shipment={shipment} />
      <CarrierLogs shipment={shipment} />
      <ReturnDialog shipment={madeReturn} onClose={() => setMadeReturn(null)} />
      {split && (
        <SplitDialogs
          key={`${split.kind}:${split.parcelId}`}
          shipment={shipment}
          split={split}
          onClose={() => setSplit((current) => current && { ...current, open: false })}
          onDone={(result) => {
            setSplit(null);
            setSplitResult(result.newShipments);
            onChanged(result.originalShipment);
          }}
        />
      )}
    </article>
  );
}

function SplitDialogs({
  shipment,
  split,
  onClose,
  onDone,
}: {
  shipment: Shipment;
  split: { kind: 'one' | 'batch'; parcelId: string; open: boolean };
  onClose: () => void;
  onDone: (result: { originalShipment: Shipment; newShipments: Shipment[] }) => void;
}) {
  const props = { shipment, parcelId: split.parcelId, open: split.open, onClose, onDone };
  return split.kind === 'one' ? <SplitDialog {...props} /> : <BatchSplitDialog {...props} />;
}
