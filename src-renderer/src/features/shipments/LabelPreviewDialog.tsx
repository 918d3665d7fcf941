import { useEffect, useState } from 'react';
import type { ShipmentDocument } from '../../../../src-shared/schemas/shipment';
import type { BinaryResponse } from '../../../../src-shared/client';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { blobOf, documentTitle, fetchDocument, pageSizeMm, saveFile } from './documents';

const VIEWER_MARGIN_PX = 24;

/**
 * A document at its true physical size: the PDF in Chromium's viewer at 100 % in a frame sized in CSS
 * millimetres, so a 100 × 150 mm label looks 100 × 150 mm on a correctly set-up screen. ZPL is a
 * printer program, shown as text.
 */
export function LabelPreviewDialog({
  open,
  onClose,
  orgId,
  shipmentId,
  document,
  onPrint,
}: {
  open: boolean;
  onClose: () => void;
  orgId: string;
  shipmentId: string;
  document: ShipmentDocument | null;
  onPrint: (document: ShipmentDocument) => void;
}) {
  return (
    <Dialog title={document ? documentTitle(document) : 'Preview'} open={open && document !== null} onClose={onClose} wide>
      {document && <Preview orgId={orgId} shipmentId={shipmentId} document={document} onPrint={() => onPrint(document)} />}
    </Dialog>
  );
}

function Preview({ orgId, shipmentId, document, onPrint }: { orgId: string; shipmentId: string; document: ShipmentDocument; onPrint: () => void }) {
  const [file, setFile] = useState<BinaryResponse | null>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let objectUrl: string | null = null;
    let live = true;
    fetchDocument(orgId, shipmentId, document.id).then(
      (loaded) => {
        if (!live) return;
        setFile(loaded);
        if (document.format === 'pdf') {
          objectUrl = URL.createObjectURL(blobOf(loaded));
          setUrl(objectUrl);
        }
      },
      (caught: unknown) => live && setError(caught),
    );
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [orgId, shipmentId, document.id, document.format]);

  const size = pageSizeMm[document.size];
  return (
    <div>
      <ErrorNotice error={error} title="The document could not be loaded" />
      {!file && !error && <p className="loading">Loading the document…</p>}
      {document.format === 'pdf' && url && (
        <div className="label-preview">
          <iframe
            src={`${url}#zoom=100&toolbar=0&navpanes=0`}
            title={`${documentTitle(document)}, shown at its real size`}
            // The viewer draws a few pixels of border and shadow around the page; the page itself stays 1:1.
            style={{ width: `calc(${size.width}mm + ${VIEWER_MARGIN_PX}px)`, height: `calc(${size.height}mm + ${VIEWER_MARGIN_PX}px)` }}
          />
        </div>
      )}
      {document.format === 'zpl' && file && (
        <>
          <p className="notice">
            This is a ZPL label ({size.width} × {size.height} mm): a program for a thermal label printer, which draws it. Print it on a ZPL printer;
            it cannot be shown as a picture here.
          </p>
          <pre className="zpl" tabIndex={0} aria-label="ZPL code">
            {new TextDecoder().decode(file.data)}
          </pre>
        </>
      )}
      <p className="muted">
        Shown at {size.width} × {size.height} mm. If it looks larger or smaller than a real label, your screen scaling differs from 96 dpi; the
        print is not affected.
      </p>
      <div className="form-actions">
        <button type="button" disabled={!file} onClick={() => file && saveFile(file, `${document.documentType}.${document.format}`)}>
          Download
        </button>
        <button type="button" className="primary" onClick={onPrint} data-autofocus>
          Print…
        </button>
      </div>
    </div>
  );
}
