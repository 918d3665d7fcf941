import { useState } from 'react';
import type { Shipment, ShipmentDocument } from '../../../../src-shared/schemas/shipment';
import { formatDateTime } from '../../lib/format';
import { ErrorNotice } from '../../components/ErrorNotice';
import { documentTitle, fetchDocument, saveFile, voidFile } from './documents';
import { LabelPreviewDialog } from './LabelPreviewDialog';
import { PrintDialog } from './PrintDialog';
import { useCanWrite } from '../../lib/permissions';
import { useCarrierInTestMode } from '../../components/TestModeBadge';

/**
 * Labels and papers of a shipment, each with Preview, Download and Print. A cancelled shipment's
 * labels are void with the carrier: they stay for the record (Preview, Download marked VOID) but are
 * never offered for printing, so a dead label cannot end up on a parcel.
 */
export function DocumentsCard({ orgId, shipment, onPrinted }: { orgId: string; shipment: Shipment; onPrinted: () => void }) {
  const [preview, setPreview] = useState<ShipmentDocument | null>(null);
  const [printing, setPrinting] = useState<ShipmentDocument[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const labels = shipment.documents.filter((document) => document.documentType === 'label');
  const voided = shipment.status === 'cancelled';
  const testMode = useCarrierInTestMode(shipment.carrierSettings.carrierId);
  // Printing needs write:printers (a viewer previews and downloads only).
  const canPrint = useCanWrite('printers');
  const printable = !voided && canPrint;

  const download = async (document: ShipmentDocument) => {
    setError(null);
    try {
      const file = await fetchDocument(orgId, shipment.id, document.id);
      const name = `${shipment.reference}-${document.documentType}.${document.format}`;
      if (voided) saveFile(voidFile(file, name), name);
      else saveFile(file, name);
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <section className="card" aria-labelledby="documents-title">
      <div className="card-header">
        <h2 id="documents-title">Documents</h2>
        <div className="row-actions">
          {printable && labels.length > 0 && (
            <button type="button" className="primary" onClick={() => setPrinting(labels)}>
              Print label{labels.length === 1 ? '' : 's'}
            </button>
          )}
          {/* Labels and papers together: the print dialog gives each its own printer. */}
          {printable && shipment.documents.length > labels.length && (
            <button type="button" onClick={() => setPrinting(shipment.documents)}>
              Print all
            </button>
          )}
        </div>
      </div>
      {voided && shipment.documents.length > 0 && (
        <p className="void-notice" role="note">
          <strong>Cancelled: {labels.length === 1 ? 'its label is' : 'its labels are'} void.</strong> The booking was voided with the carrier, so{' '}
          {labels.length === 1 ? 'the label' : 'these labels'} must not go on a parcel. The documents stay here for the record and cannot be printed.
        </p>
      )}
      {shipment.documents.length === 0 ? (
        <p className="muted">No documents yet. Labels are made when the shipment is sent.</p>
      ) : (
        <table className="plain" aria-label="Documents">
          <thead>
            <tr>
              <th scope="col">Document</th>
              <th scope="col">Made</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shipment.documents.map((document) => (
              <tr key={document.id} className={voided ? 'document-void' : undefined}>
                <td>
                  {documentTitle(document)}
                  {voided && document.documentType === 'label' && <span className="void-badge"> Void</span>}
                </td>
                <td>{formatDateTime(document.createdAt)}</td>
                <td>
                  <div className="row-actions">
                    <button type="button" onClick={() => setPreview(document)} aria-label={`Preview ${documentTitle(document)}`}>
                      Preview
                    </button>
                    <button type="button" onClick={() => void download(document)} aria-label={`Download ${documentTitle(document)}`}>
                      Download
                    </button>
                    {printable && (
                      <button type="button" onClick={() => setPrinting([document])} aria-label={`Print ${documentTitle(document)}`}>
                        Print
                      </button>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ErrorNotice error={error} title="The document could not be downloaded" />
      <LabelPreviewDialog
        open={preview !== null}
        onClose={() => setPreview(null)}
        orgId={orgId}
        shipmentId={shipment.id}
        document={preview}
        voided={voided}
        testMode={testMode}
        onPrint={
          printable
            ? (document) => {
                setPreview(null);
                setPrinting([document]);
              }
            : undefined
        }
      />
      <PrintDialog
        open={printing !== null}
        onClose={() => {
          setPrinting(null);
          // The shipment's activity shows the printing; read it again.
          onPrinted();
        }}
        orgId={orgId}
        shipmentId={shipment.id}
        documents={printing ?? []}
      />
    </section>
  );
}
