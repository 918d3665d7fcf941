import { useState } from 'react';
import type { Shipment, ShipmentDocument } from '../../../../src-shared/schemas/shipment';
import { formatDateTime } from '../../lib/format';
import { ErrorNotice } from '../../components/ErrorNotice';
import { documentTitle, fetchDocument, saveFile } from './documents';
import { LabelPreviewDialog } from './LabelPreviewDialog';
import { PrintDialog } from './PrintDialog';

/** Labels and papers of a shipment, each with Preview, Download and Print. */
export function DocumentsCard({ orgId, shipment, onPrinted }: { orgId: string; shipment: Shipment; onPrinted: () => void }) {
  const [preview, setPreview] = useState<ShipmentDocument | null>(null);
  const [printing, setPrinting] = useState<ShipmentDocument[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const labels = shipment.documents.filter((document) => document.documentType === 'label');

  const download = async (document: ShipmentDocument) => {
    setError(null);
    try {
      saveFile(await fetchDocument(orgId, shipment.id, document.id), `${shipment.reference}-${document.documentType}.${document.format}`);
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <section className="card" aria-labelledby="documents-title">
      <div className="card-header">
        <h2 id="documents-title">Documents</h2>
        <div className="row-actions">
          {labels.length > 0 && (
            <button type="button" className="primary" onClick={() => setPrinting(labels)}>
              Print label{labels.length === 1 ? '' : 's'}
            </button>
          )}
          {/* Labels and papers together: the print dialog gives each its own printer. */}
          {shipment.documents.length > labels.length && (
            <button type="button" onClick={() => setPrinting(shipment.documents)}>
              Print all
            </button>
          )}
        </div>
      </div>
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
              <tr key={document.id}>
                <td>{documentTitle(document)}</td>
                <td>{formatDateTime(document.createdAt)}</td>
                <td>
                  <div className="row-actions">
                    <button type="button" onClick={() => setPreview(document)} aria-label={`Preview ${documentTitle(document)}`}>
                      Preview
                    </button>
                    <button type="button" onClick={() => void download(document)} aria-label={`Download ${documentTitle(document)}`}>
                      Download
                    </button>
                    <button type="button" onClick={() => setPrinting([document])} aria-label={`Print ${documentTitle(document)}`}>
                      Print
                    </button>
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
        onPrint={(document) => {
          setPreview(null);
          setPrinting([document]);
        }}
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
