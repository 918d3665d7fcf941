import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { Shipment } from '../../../../src-shared/schemas/shipment';
import { useOrgId } from '../../lib/session';
import { stripControlCharacters, useScanReader, REPEAT_WINDOW_MS } from '../../lib/scan';
import { Link } from '../../app/router';
import { StatusBadge } from '../../components/StatusBadge';
import { useCarriers } from '../../components/CarrierPicker';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CarrierTestBadgeById } from '../../components/TestModeBadge';
import { PrintDialog } from '../shipments/PrintDialog';
import { productName, useProductNames } from '../shipments/productNames';
import { useShipmentList } from '../shipments/listState';
import { useOrderList } from '../orders/listState';
import { canReprint, canSendNow, printSummary, type PackLink, type PackProblem, type PackResult } from './packFlow';
import { activeVerification, usePack, type ScanLogEntry } from './packStore';
import { ShortPackDialog, VerifyPanel } from './VerifyPanel';
import { useCueSound } from './cueSound';
import type { Verification } from './verification';
import { refocusIfLost, useScanFocus, useScanInDialog } from './useScanFocus';
import { ReadOnlyNote, useCanWrite } from '../../lib/permissions';
import { client } from '../../lib/api';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ServicePointPicker } from '../../components/ServicePointPicker';
import { servicePointUpdate } from '../shipments/form/model';
import type { ServicePoint } from '../../../../src-shared/schemas/carrier';
import { withoutIds } from '../../lib/plainIds';
import { printJobNames } from '../shipments/shipmentProblems';

const timeOfDay = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/**
 * `/pack`: the packing station (USERS 5). One big scan box that keeps the focus. An order number
 * makes the order's shipment by rule (or shows the one still open) and, after one Enter or at once
 * with "Send on scan", books it so the rule prints the label; a shipment reference or a label's
 * barcode shows the shipment to send or reprint. With "Check items by scanning" the order's items are
 * scanned into their boxes first, and the last one sends it (issue 20). Below, the scans of this session.
 */
export function PackScreen() {
  const orgId = useOrgId();
  const pack = usePack();
  const input = useRef<HTMLInputElement>(null);
  const focusScan = useScanFocus(input);
  const hintId = useId();
  const [printing, setPrinting] = useState(false);
  const canPack = useCanWrite('shipments');

  const [shortPack, setShortPack] = useState(false);
  const current = pack.current?.orgId === orgId ? pack.current.result : null;
  const checking = activeVerification(pack, orgId);
  const log = pack.log.filter((entry) => entry.orgId === orgId);
  const working = log.find((entry) => entry.tone === 'working');
  useCueSound(pack.cue);

  /** Enter in the empty box or the send button: a checked shipment with units left asks first (short pack). */
  const confirm = () => {
    if (pack.confirmSend(orgId) === 'short') setShortPack(true);
  };
  const reader = useScanReader({
    onScan: (code) => pack.scan(orgId, code),
    onRepeat: (code) => pack.repeat(orgId, code),
    // No scanner sends a bare Enter: it is the packer confirming the shipment on screen.
    onEmptyEnter: confirm,
    clearAfterScan: true,
  });
  /**
   * While items are checked, keys on the empty box act on them: Backspace or Ctrl+Z takes the last
   * tick back, F2 or + starts the next box. A box with text in it types as ever.
   */
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const empty = event.currentTarget.value === '';
    if (checking && empty && (event.key === 'Backspace' || (event.key.toLowerCase() === 'z' && (event.ctrlKey || event.metaKey)))) {
      event.preventDefault();
      pack.undoTick(orgId);
      return;
    }
    if (checking && (event.key === 'F2' || (empty && event.key === '+'))) {
      event.preventDefault();
      pack.startNextBox(orgId);
      return;
    }
    reader.onKeyDown(event);
  };

  // A result replaces the one whose buttons may have held the focus.
  useEffect(() => refocusIfLost(focusScan), [current, pack.pending, pack.verification, focusScan]);

  const send = () => {
    confirm();
    focusScan();
  };
  const closeShortPack = () => {
    setShortPack(false);
    requestAnimationFrame(focusScan);
  };
  const sendShort = () => {
    setShortPack(false);
    pack.confirmSend(orgId, { short: true });
    requestAnimationFrame(focusScan);
  };
  const rebook = () => {
    pack.confirmSend(orgId, { confirmRebook: true });
    focusScan();
  };
  const { refreshPrint, scan } = pack;
  const closePrint = useCallback(() => {
    setPrinting(false);
    refreshPrint(orgId);
    // The dialog gives the focus back to the button that opened it as it closes; take it after that.
    requestAnimationFrame(focusScan);
  }, [refreshPrint, orgId, focusScan]);
  // The packer has moved on to the next parcel: the dialog makes way and the scan is a scan.
  useScanInDialog(
    useCallback(
      (code: string) => {
        closePrint();
        setShortPack(false);
        scan(orgId, code);
      },
      [closePrint, scan, orgId],
    ),
  );

  // Every scan may make, send or print a shipment: a role that may not change shipments is told so
  // here rather than meeting a refusal on its first scan.
  if (!canPack) {
    return (
      <section aria-labelledby="pack-title" className="pack">
        <header className="page-header">
          <h1 id="pack-title">Pack</h1>
        </header>
        <ReadOnlyNote what="shipments"> Packing makes and sends them, so this screen is for packers, admins and owners.</ReadOnlyNote>
      </section>
    );
  }

  return (
    <section aria-labelledby="pack-title" className="pack">
      <header className="page-header">
        <h1 id="pack-title">Pack</h1>
        <label className="check pack-setting">
          <input
            type="checkbox"
            checked={pack.sendOnScan}
            onChange={(event) => {
              pack.setSendOnScan(event.target.checked);
              focusScan();
            }}
          />{' '}
          Send and print on scan <small className="muted">(this station)</small>
        </label>
        <label className="check pack-setting">
          <input
            type="checkbox"
            checked={pack.verify}
            onChange={(event) => {
              pack.setVerify(event.target.checked);
              focusScan();
            }}
          />{' '}
          Check items by scanning <small className="muted">(this station)</small>
        </label>
      </header>

      <div className="pack-scan">
        <label htmlFor="pack-scan-input">Scan an order or a shipment</label>
        <input
          id="pack-scan-input"
          ref={input}
          className="pack-scan-input"
          type="text"
          inputMode="text"
          autoComplete="off"
          autoCorrect="off"
          autoCapitalize="off"
          spellCheck={false}
          placeholder={checking ? 'Item, weight, or the next order' : 'Order number or shipment reference'}
          aria-describedby={hintId}
          aria-keyshortcuts="Enter"
          onInput={(event) => {
            // Uncontrolled, so a fast scanner's keys are never lost between renders; what it types
            // around the code (STX, GS, CR) is dropped as it arrives.
            const box = event.currentTarget;
            const clean = stripControlCharacters(box.value);
            if (clean !== box.value) box.value = clean;
          }}
          onKeyDown={onKeyDown}
        />
        <p id={hintId} className="muted">
          {checking
            ? 'Scan each item (SKU or barcode) as it goes into the box; a weight from the scale weighs the open box. F2 starts the next box, Backspace takes the last item back, Enter sends.'
            : pack.sendOnScan
              ? 'A scanned order gets its shipment by its shipping rule, sent and its label printed at once.'
              : 'A scanned order gets its shipment by its shipping rule; Enter (in the empty box) sends it and prints the label.'}{' '}
          The same code read twice within {REPEAT_WINDOW_MS} ms counts once.
        </p>
      </div>

      <p role="status" className="pack-working">
        {working ? (working.text === 'Working…' ? `Looking up ${working.code}…` : working.text) : ''}
      </p>

      {current && (
        <PackResultCard
          key={resultKey(current)}
          orgId={orgId}
          result={current}
          sending={pack.sending}
          onSend={send}
          onRebook={rebook}
          onPrint={() => setPrinting(true)}
          verify={
            checking && {
              verification: checking,
              onUndo: () => {
                pack.undoTick(orgId);
                focusScan();
              },
              onNextBox: () => {
                pack.startNextBox(orgId);
                focusScan();
              },
            }
          }
        />
      )}

      {current?.kind === 'shipment' && (
        <ShortPackDialog open={shortPack} reference={current.shipment.reference} verification={checking} onConfirm={sendShort} onCancel={closeShortPack} />
      )}

      <ScanLog entries={log} />

      {current?.kind === 'shipment' && canReprint(current.shipment) && (
        <PrintDialog
          open={printing}
          onClose={closePrint}
          orgId={orgId}
          shipmentId={current.shipment.id}
          documents={current.shipment.documents.filter((document) => document.documentType === 'label')}
          avoidPrinterId={failedPrinterOf(current)}
          // Closed once printed, so no "Print again" keeps the focus for the next scan's Enter.
          onPrinted={closePrint}
        />
      )}
    </section>
  );
}

/** The printer the label just failed on after the send, so Print label offers another one first (USERS 1: a fallback). */
function failedPrinterOf(result: PackResult): string | null {
  if (result.kind !== 'shipment') return null;
  return result.print?.jobs.find((job) => job.status === 'failed')?.printerId ?? null;
}

function resultKey(result: PackResult): string {
  return result.kind === 'shipment' ? `${result.code}:${result.shipment.id}` : `${result.kind}:${result.code}`;
}

/** The result of the last scan, large enough to read from the packing table. */
function PackResultCard({
  orgId,
  result,
  sending,
  onSend,
  onRebook,
  onPrint,
  verify,
}: {
  orgId: string;
  result: PackResult;
  sending: boolean;
  onSend: () => void;
  onRebook: () => void;
  onPrint: () => void;
  verify: VerifyProps | null;
}) {
  const titleId = useId();
  if (result.kind === 'nothing') {
    return (
      <section className="pack-result pack-result-bad" aria-labelledby={titleId}>
        <h2 id={titleId}>Nothing found for “{result.code}”</h2>
        <p>No order number and no shipment reference is exactly this code. Check the label that was scanned, or search under Orders or Shipments.</p>
      </section>
    );
  }
  if (result.kind === 'problem') {
    return (
      <section className="pack-result pack-result-bad" aria-labelledby={titleId}>
        <p className="pack-kicker">Scanned “{result.code}”</p>
        <ProblemBody problem={result.problem} titleId={titleId} />
      </section>
    );
  }
  return (
    <ShipmentResult orgId={orgId} result={result} titleId={titleId} sending={sending} onSend={onSend} onRebook={onRebook} onPrint={onPrint} verify={verify} />
  );
}

/** The items being checked, and the keys' buttons, for the shipment card. */
interface VerifyProps {
  verification: Verification;
  onUndo: () => void;
  onNextBox: () => void;
}

function ShipmentResult({
  orgId,
  result,
  titleId,
  sending,
  onSend,
  onRebook,
  onPrint,
  verify,
}: {
  orgId: string;
  result: Extract<PackResult, { kind: 'shipment' }>;
  titleId: string;
  sending: boolean;
  onSend: () => void;
  onRebook: () => void;
  onPrint: () => void;
  verify: VerifyProps | null;
}) {
  const cue = usePack((state) => state.cue);
  const [confirmRebook, setConfirmRebook] = useState(false);
  const { shipment, order } = result;
  const carriers = useCarriers();
  const productNames = useProductNames(orgId, carriers.data?.data);
  const { carrierId, productId } = shipment.carrierSettings;
  const carrierName = carriers.data?.data.find((carrier) => carrier.id === carrierId)?.name ?? carrierId;
  const receiver = shipment.parties.find((party) => party.type === 'receiver');
  const sendable = canSendNow(shipment.status);
  const print = printSummary(result.print);
  const tone = result.problem || print?.tone === 'bad' ? 'bad' : result.sent || shipment.status === 'dispatched' ? 'ok' : 'info';

  return (
    <section className={`pack-result pack-result-${tone}`} aria-labelledby={titleId}>
      <p className="pack-kicker">{kicker(result)}</p>
      <h2 id={titleId} className="pack-reference">
        {shipment.reference} <StatusBadge status={shipment.status} />
        <CarrierTestBadgeById carrierId={carrierId} />
      </h2>
      <dl className="pack-facts">
        <dt>Receiver</dt>
        <dd>
          {receiver
            ? [receiver.name, receiver.address1, `${receiver.postalCode} ${receiver.city}`, receiver.countryCode].filter((part) => part.trim()).join(', ')
            : '—'}
        </dd>
        <dt>Carrier</dt>
        <dd>
          {carrierName} · {productName(productNames, carrierId, productId)}
          {shipment.shippingRule && <span className="muted"> (rule “{shipment.shippingRule.name}”)</span>}
        </dd>
        <dt>Tracking number</dt>
        <dd className="pack-tracking">{shipment.tracking?.number ?? '—'}</dd>
      </dl>
      {sendable && receiver && <PackServicePoint orgId={orgId} shipment={shipment} receiver={receiver} />}
      <PrintLine result={result} />
      {!sendable && !result.sent && statusAdvice(shipment) && <p>{statusAdvice(shipment)}</p>}
      {result.problem && <ProblemBody problem={result.problem} titleId={`${titleId}-problem`} level={3} />}
      {verify && (
        <VerifyPanel verification={verify.verification} cue={cue} sending={sending} onUndo={verify.onUndo} onNextBox={verify.onNextBox} onSend={onSend} />
      )}
      <div className="actions pack-actions">
        {sendable && !verify && (
          <button type="button" className="primary pack-send" onClick={onSend} disabled={sending} aria-keyshortcuts="Enter">
            {sending ? 'Sending…' : shipment.status === 'error' ? 'Send again and print' : 'Send and print'} <kbd aria-hidden="true">Enter</kbd>
          </button>
        )}
        {sendable && result.problem?.rebook && (
          <button type="button" className="danger" onClick={() => setConfirmRebook(true)} disabled={sending}>
            Book again…
          </button>
        )}
        {canReprint(shipment) && (
          <button type="button" onClick={onPrint}>
            {failedPrinterOf(result) ? 'Print on another printer…' : 'Print label'}
          </button>
        )}
        <Link to={`/shipments/${encodeURIComponent(shipment.id)}`}>Open {shipment.reference}</Link>
        {order && <Link to={`/orders/${encodeURIComponent(order.id)}`}>Order {order.orderNumber}</Link>}
      </div>
      <ConfirmDialog
        open={confirmRebook}
        title={`Book ${shipment.reference} again?`}
        confirmLabel="Book again"
        onConfirm={() => {
          setConfirmRebook(false);
          onRebook();
        }}
        onCancel={() => setConfirmRebook(false)}
        message={
          <>
            <p>
              The carrier did not answer whether it booked {shipment.reference}, and Shipdesk cannot ask it. Check with the carrier first (its website or
              customer service).
            </p>
            <p>Book again only if the carrier has no booking for it: otherwise the parcel is booked and charged twice.</p>
          </>
        }
      />
    </section>
  );
}

/**
 * The shipment's service point, for a product that delivers to one: changed here at the packing
 * table (the customer called, the nearest is closed) and saved at once, so the send books it.
 */
function PackServicePoint({ orgId, shipment, receiver }: { orgId: string; shipment: Shipment; receiver: Shipment['parties'][number] }) {
  const replaceShipment = usePack((state) => state.replaceShipment);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const choose = async (point: ServicePoint | null) => {
    setSaving(true);
    setError(null);
    try {
      const updated = await client.call('shipments.update', { params: { orgId, shipmentId: shipment.id }, body: servicePointUpdate(shipment, point) });
      replaceShipment(orgId, updated);
    } catch (caught) {
      setError(caught);
    } finally {
      setSaving(false);
    }
  };
  return (
    <div className="pack-service-point">
      <ServicePointPicker
        carrierId={shipment.carrierSettings.carrierId}
        productId={shipment.carrierSettings.productId}
        address={receiver}
        value={shipment.servicePointId}
        onChange={(point) => void choose(point)}
        disabled={saving}
      />
      <ErrorNotice error={error} title="The service point could not be saved" />
    </div>
  );
}

function kicker(result: Extract<PackResult, { kind: 'shipment' }>): string {
  const { order, shipment } = result;
  const rule = shipment.shippingRule ? ` by rule “${shipment.shippingRule.name}”` : '';
  if (result.byLabel) return `Shipment found by the barcode “${result.code}” on its label${order ? `, of order ${order.orderNumber}` : ''}`;
  if (!order) return `Shipment found by its reference “${result.code}”`;
  if (result.made && result.sent) return `Order ${order.orderNumber}: shipment made${rule} and sent`;
  if (result.made) return `Order ${order.orderNumber}: shipment made${rule}, not sent yet`;
  if (result.sent) return `Order ${order.orderNumber}: shipment sent`;
  if (result.code !== order.orderNumber) return `Shipment found by its reference “${result.code}”, of order ${order.orderNumber}`;
  const more = result.otherOpen > 0 ? ` (and ${result.otherOpen} more; see the order)` : '';
  return `Order ${order.orderNumber} already has this shipment open${more}`;
}

/** Why a shown shipment has no "Send and print", when its status is the reason. */
function statusAdvice(shipment: Shipment): string | null {
  switch (shipment.status) {
    case 'draft':
      return 'It is a draft: mark it ready to send on its page, then scan again.';
    case 'on_hold':
      return 'It is on hold: release it on its page, then scan again.';
    case 'processing':
      return 'It is being booked with the carrier right now.';
    case 'cancelled':
      return 'It is cancelled.';
    default:
      return null;
  }
}

/** Where the label went: the print jobs' state, or why none was printed. */
function PrintLine({ result }: { result: Extract<PackResult, { kind: 'shipment' }> }) {
  const { shipment } = result;
  const print = printSummary(result.print);
  const printErrors = shipment.errors.filter((error) => error.code === 'AUTO_PRINT_FAILED');
  if (print) {
    return (
      <p className={`pack-print pack-print-${print.tone}`} role={print.tone === 'bad' ? 'alert' : undefined}>
        {result.sent ? print.text : `Last print: ${print.text}`}
      </p>
    );
  }
  if (result.sent && result.printRefused) {
    return (
      <p className="pack-print pack-print-bad" role="alert">
        No label was printed: {result.printRefused.replace(/\.?$/, '.')} Use “Print label” once a printer is ready.
      </p>
    );
  }
  if (result.sent && printErrors.length) {
    return (
      <p className="pack-print pack-print-bad" role="alert">
        {withoutIds(printErrors[printErrors.length - 1]?.message ?? '', { printJobs: printJobNames(shipment, result.print?.jobs ?? []) })}
      </p>
    );
  }
  return null;
}

function ProblemBody({ problem, titleId, level = 2 }: { problem: PackProblem; titleId: string; level?: 2 | 3 }) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <div role="alert">
      <Heading id={titleId}>{problem.title}</Heading>
      {problem.detail && <p>{problem.detail}</p>}
      {problem.items && problem.items.length > 0 && (
        <ul>
          {problem.items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
      {problem.advice && (
        <p>
          <strong>What to do:</strong> {problem.advice}
        </p>
      )}
      {problem.link && (
        <p>
          <PackLinkTo link={problem.link} />
        </p>
      )}
      {problem.code && (
        <small>
          Error code <code>{problem.code}</code>
        </small>
      )}
    </div>
  );
}

/** A link from a result; one to a list fills that list's search with the code. */
function PackLinkTo({ link }: { link: PackLink }) {
  const onClick = () => {
    if (link.search?.list === 'orders') useOrderList.getState().update({ searchText: link.search.text, search: link.search.text, page: 1 });
    if (link.search?.list === 'shipments') useShipmentList.getState().setSearch(link.search.text);
  };
  return (
    <Link to={link.to} onClick={onClick}>
      {link.label}
    </Link>
  );
}

function ScanLog({ entries }: { entries: ScanLogEntry[] }) {
  return (
    <section className="card pack-log" aria-labelledby="pack-log-title">
      <h2 id="pack-log-title">Scans this session</h2>
      {entries.length === 0 ? (
        <p className="muted">Nothing scanned yet.</p>
      ) : (
        <table className="plain">
          <caption className="visually-hidden">Scans this session, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Code</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id} className={`pack-log-${entry.tone}`}>
                <td>
                  <time dateTime={entry.at.toISOString()}>{timeOfDay.format(entry.at)}</time>
                </td>
                <td>
                  <code>{entry.code}</code>
                </td>
                <td className="wrap">
                  {entry.text}
                  {entry.link && (
                    <>
                      {' · '}
                      <PackLinkTo link={entry.link} />
                    </>
                  )}
                  {entry.repeats > 0 && (
                    <span className="muted">
                      {' '}
                      · read again {entry.repeats === 1 ? 'once' : `${entry.repeats} times`} within {REPEAT_WINDOW_MS} ms, ignored
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
