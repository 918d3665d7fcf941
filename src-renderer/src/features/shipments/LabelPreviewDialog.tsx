import { useEffect, useState } from 'react';
import type { ShipmentDocument } from '../../../../src-shared/schemas/shipment';
import type { BinaryResponse } from '../../../../src-shared/client';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { TestBadge } from '../../components/TestModeBadge';
import { blobOf, documentTitle, fetchDocument, pageSizeMm, saveFile, voidFile } from './documents';
import { useInitialFocus } from './useInitialFocus';

const VIEWER_MARGIN_PX = 24;

/**
 * A document at its true physical size: the PDF in Chromium's viewer at 100 % in a frame sized in CSS
 * millimetres, so a 100 × 150 mm label looks 100 × 150 mm on a correctly set-up screen. A ZPL label
 * is shown as the server draws it in PDF, with its code below; a carrier's own ZPL only as code. A
 * void document (cancelled shipment) is shown for the record only: no Print…; nor is one the user's
 * role may not print (no `onPrint`).
 */
export function LabelPreviewDialog({
  open,
  onClose,
  orgId,
  shipmentId,
  document,
  onPrint,
  voided = false,
  testMode = false,
}: {
  open: boolean;
  onClose: () => void;
  orgId: string;
  shipmentId: string;
  document: ShipmentDocument | null;
  onPrint?: (document: ShipmentDocument) => void;
  voided?: boolean;
  /** Booked in the carrier's sandbox (decisions §13): the preview says TEST. */
  testMode?: boolean;
}) {
  const title = document ? documentTitle(document) : 'Preview';
  return (
    <Dialog title={testMode ? `TEST ${title}` : title} open={open && document !== null} onClose={onClose} wide>
      {document && testMode && (
        <p className="label-preview-test" role="note">
          <TestBadge /> Booked in the carrier&apos;s test system: this label is not valid for shipping. Switch off Test mode in the carrier&apos;s settings to
          book for real.
        </p>
      )}
      {document && (
        <Preview orgId={orgId} shipmentId={shipmentId} document={document} voided={voided} onPrint={onPrint && !voided ? () => onPrint(document) : undefined} />
      )}
    </Dialog>
  );
}

function Preview({
  orgId,
  shipmentId,
  document,
  voided,
  onPrint,
}: {
  orgId: string;
  shipmentId: string;
  document: ShipmentDocument;
  voided: boolean;
  /** Absent for a void document and for a role that may not print. */
  onPrint?: () => void;
}) {
  const [file, setFile] = useState<BinaryResponse | null>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  // A ZPL label is shown as Shipdesk draws it in PDF; when it cannot be drawn (a carrier's own ZPL), as its code.
  const [drawnFailed, setDrawnFailed] = useState(false);

  useEffect(() => {
    let objectUrl: string | null = null;
    let live = true;
    const show = (pdf: BinaryResponse) => {
      objectUrl = URL.createObjectURL(blobOf(pdf));
      setUrl(objectUrl);
    };
    fetchDocument(orgId, shipmentId, document.id).then(
      (loaded) => {
        if (!live) return;
        setFile(loaded);
        if (document.format === 'pdf') show(loaded);
      },
      (caught: unknown) => live && setError(caught),
    );
    if (document.format === 'zpl' && document.documentType === 'label') {
      fetchDocument(orgId, shipmentId, document.id, 'pdf').then(
        (drawn) => live && show(drawn),
        () => live && setDrawnFailed(true),
      );
    }
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [orgId, shipmentId, document.id, document.format, document.documentType]);

  // The Dialog starts on the first button of the body, which is Download, disabled until the file is
  // here, so focus stayed on ×. Print… is what the preview is opened for; without it, only Download.
  const printButton = useInitialFocus<HTMLButtonElement>(onPrint !== undefined);
  const downloadButton = useInitialFocus<HTMLButtonElement>(onPrint === undefined && file !== null);
  const size = pageSizeMm[document.size];
  const fileName = `${document.documentType}.${document.format}`;
  return (
    <div>
      {voided && (
        <p className="void-notice" role="note">
          <strong>Void.</strong> This shipment is cancelled and this document is kept for the record only; do not print it or put it on a parcel.
        </p>
      )}
      <ErrorNotice error={error} title="The document could not be loaded" />
      {!file && !error && <p className="loading">Loading the document…</p>}
      {url && (
        <div className="label-preview">
          <iframe
            src={`${url}#zoom=100&toolbar=0&navpanes=0`}
            title={`${documentTitle(document)}, shown at its real size`}
            // The viewer draws a few pixels of border and shadow around the page; the page itself stays 1:1.
            style={{ width: `calc(${size.width}mm + ${VIEWER_MARGIN_PX}px)`, height: `calc(${size.height}mm + ${VIEWER_MARGIN_PX}px)` }}
          />
        </div>
      )}
      {document.format === 'zpl' && url && (
        <p className="notice">
          A ZPL label, shown as Shipdesk draws it for the screen. A thermal printer gets the ZPL itself; an office printer gets this drawing.
        </p>
      )}
      {document.format === 'zpl' && file && !url && drawnFailed && (
        <p className="notice">
          This is a ZPL label ({size.width} × {size.height} mm) made by the carrier: a program for a thermal label printer, which draws it. Print it on a ZPL
          printer; it cannot be shown as a picture here.
        </p>
      )}
      {document.format === 'zpl' && file && (
        <details className="zpl-code" open={drawnFailed}>
          <summary>ZPL code</summary>
          <pre className="zpl" tabIndex={0} aria-label="ZPL code">
            {new TextDecoder().decode(file.data)}
          </pre>
        </details>
      )}
      <p className="muted">
        Shown at {size.width} × {size.height} mm. If it looks larger or smaller than a real label, your screen scaling differs from 96 dpi; the print is not
        affected.
      </p>
      <div className="form-actions sticky">
        <button type="button" disabled={!file} ref={downloadButton} onClick={() => file && saveFile(voided ? voidFile(file, fileName) : file, fileName)}>
          Download
        </button>
        {onPrint && (
          <button type="button" className="primary" onClick={onPrint} ref={printButton}>
            Print…
          </button>
        )}
      </div>
    </div>
  );
}
