import { useEffect, useId, useState } from 'react';
import type { BinaryResponse } from '../../../../src-shared/client';
import { MAX_PACKING_SLIP_ORDERS, MAX_PICK_LIST_ORDERS, type OrderPaperKind, type OrderPaperPrintResult } from '../../../../src-shared/schemas/orderPapers';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Field } from '../../components/forms';
import { client } from '../../lib/api';
import { useCanWrite } from '../../lib/permissions';
import { useOrgId } from '../../lib/session';
import { useOperation } from '../../lib/useOperation';
import { saveFile } from '../shipments/documents';
import { rememberedPrinter, rememberPrinter } from '../shipments/printerChoice';

const papers: Record<OrderPaperKind, { title: string; noun: string; file: string; max: number; download: 'orders.pickList' | 'orders.packingSlips' }> = {
  pickList: { title: 'Pick list', noun: 'pick list', file: 'pick-list.pdf', max: MAX_PICK_LIST_ORDERS, download: 'orders.pickList' },
  packingSlips: { title: 'Packing slips', noun: 'packing slips', file: 'packing-slips.pdf', max: MAX_PACKING_SLIP_ORDERS, download: 'orders.packingSlips' },
};
const printOperation = { pickList: 'orders.printPickList', packingSlips: 'orders.printPackingSlips' } as const;
/** The station's A4 printer, the same one the Print dialog remembers for a shipment's papers. */
const PAPERS_PRINTER = 'papers.pdf';

/**
 * "Pick list…" and "Packing slips…" on the Orders screen: for the orders ticked in the list or every
 * pending order, optionally only one carrier's, as a PDF to open or save, or printed on an A4 printer.
 */
export function PickListDialog({
  kind,
  open,
  onClose,
  selectedIds,
  selectionLabel,
}: {
  kind: OrderPaperKind;
  open: boolean;
  onClose: () => void;
  selectedIds: readonly string[];
  /** How the chosen orders are named where they are not ticked in a list ("Order 1001"). */
  selectionLabel?: string;
}) {
  const orgId = useOrgId();
  const paper = papers[kind];
  const canPrint = useCanWrite('orders');
  const carriers = useOperation('carriers.list', { params: { orgId }, query: { limit: 100 } });
  const printers = useOperation('printers.list', { params: { orgId }, query: { limit: 100 } });
  const pdfPrinters = (printers.data?.data ?? []).filter((printer) => printer.format === 'pdf');
  const [which, setWhich] = useState<'selected' | 'pending'>('pending');
  const [carrierId, setCarrierId] = useState('');
  const [printerId, setPrinterId] = useState('');
  const [busy, setBusy] = useState<'download' | 'print' | null>(null);
  const [failure, setFailure] = useState<{ action: 'download' | 'print'; error: unknown } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const tooMany = which === 'selected' && selectedIds.length > paper.max;
  const groupName = useId();

  // Each opening starts from what the list has: the ticked orders when there are any.
  useEffect(() => {
    if (!open) return;
    setWhich(selectedIds.length > 0 ? 'selected' : 'pending');
    setFailure(null);
    setDone(null);
    // selectedIds is read once per opening on purpose.
  }, [open]);

  // The printer this station last printed papers on, else the organization's default PDF printer.
  useEffect(() => {
    if (printerId || pdfPrinters.length === 0) return;
    const remembered = rememberedPrinter(orgId, PAPERS_PRINTER);
    const choice = pdfPrinters.find((printer) => printer.id === remembered) ?? pdfPrinters.find((printer) => printer.isDefault) ?? pdfPrinters[0];
    if (choice) setPrinterId(choice.id);
  }, [orgId, printerId, pdfPrinters]);

  const body = () => ({
    ...(which === 'selected' ? { orderIds: [...selectedIds] } : { allPending: true as const }),
    ...(carrierId ? { carrierId } : {}),
  });

  const download = async () => {
    setBusy('download');
    setFailure(null);
    setDone(null);
    try {
      // The operation table types this response as a string; both transports hand back the bytes (client.ts BinaryResponse).
      const file: unknown = await client.call(paper.download, { params: { orgId }, body: body() });
      saveFile(file as BinaryResponse, paper.file);
      setDone(`The ${paper.noun} PDF is downloaded.`);
    } catch (caught) {
      setFailure({ action: 'download', error: caught });
    } finally {
      setBusy(null);
    }
  };

  const print = async () => {
    setBusy('print');
    setFailure(null);
    setDone(null);
    try {
      const result: OrderPaperPrintResult = await client.call(printOperation[kind], { params: { orgId }, body: { ...body(), printerId } });
      rememberPrinter(orgId, PAPERS_PRINTER, result.printerId);
      setDone(result.message);
    } catch (caught) {
      setFailure({ action: 'print', error: caught });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Dialog title={paper.title} open={open} onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void (canPrint && printerId ? print() : download());
        }}
      >
        <fieldset>
          <legend>Orders</legend>
          <label className="check">
            <input
              type="radio"
              name={groupName}
              checked={which === 'selected'}
              disabled={selectedIds.length === 0}
              onChange={() => setWhich('selected')}
              data-autofocus={which === 'selected' ? true : undefined}
            />{' '}
            {selectionLabel && selectedIds.length > 0
              ? selectionLabel
              : selectedIds.length === 0
                ? 'Selected orders (tick them in the list first)'
                : `The ${selectedIds.length} selected order${selectedIds.length === 1 ? '' : 's'}`}
          </label>
          <label className="check">
            <input type="radio" name={groupName} checked={which === 'pending'} onChange={() => setWhich('pending')} /> All pending orders
            {` (the oldest ${paper.max} at most)`}
          </label>
          {tooMany && (
            <p className="field-error" role="alert">
              At most {paper.max} orders at a time; tick fewer.
            </p>
          )}
        </fieldset>
        <Field label="Carrier" hint="By each order’s shipping rule, or the rule that matches it.">
          <select value={carrierId} onChange={(event) => setCarrierId(event.target.value)}>
            <option value="">Any carrier</option>
            {carriers.data?.data.map((carrier) => (
              <option key={carrier.id} value={carrier.id}>
                Only orders for {carrier.name}
              </option>
            ))}
          </select>
        </Field>
        {canPrint && (
          <Field
            label="Printer"
            {...(pdfPrinters.length === 0 && printers.data ? { hint: 'Add an A4 printer under Settings → Printers to print from here.' } : {})}
          >
            <select value={printerId} onChange={(event) => setPrinterId(event.target.value)} disabled={pdfPrinters.length === 0}>
              {pdfPrinters.length === 0 && <option value="">No PDF printer yet</option>}
              {pdfPrinters.map((printer) => (
                <option key={printer.id} value={printer.id}>
                  {printer.name}
                  {printer.isDefault ? ' (default)' : ''}
                </option>
              ))}
            </select>
          </Field>
        )}
        {busy && (
          <p role="status" className="busy">
            {busy === 'print' ? `Printing the ${paper.noun}…` : `Making the ${paper.noun}…`}
          </p>
        )}
        {done && !busy && (
          <p role="status" className="saved-status">
            {done}
          </p>
        )}
        <ErrorNotice error={failure?.error} title={`The ${paper.noun} could not be ${failure?.action === 'print' ? 'printed' : 'made'}`} />
        <div className="form-actions">
          <button type="button" onClick={onClose}>
            Close
          </button>
          <button type="button" onClick={() => void download()} disabled={busy !== null || tooMany}>
            Download PDF
          </button>
          {canPrint && (
            <button type="submit" className="primary" disabled={busy !== null || tooMany || !printerId}>
              Print
            </button>
          )}
        </div>
      </form>
    </Dialog>
  );
}
