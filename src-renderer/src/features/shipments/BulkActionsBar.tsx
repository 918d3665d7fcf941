import { useState } from 'react';
import { useCanWrite } from '../../lib/permissions';
import { BulkActionDialog } from './BulkActionDialog';
import { bulkActions, type BulkActionId, useBulkAction } from './bulkActions';

/**
 * The actions on the shipments selected in the list (issue 20): print labels, put on hold, release,
 * cancel, change shipping rule and export CSV, each through the one BulkActionDialog. Only the actions
 * the user's role may take are offered (the server checks the scope anyway).
 */
export function BulkActionsBar({
  orgId,
  selection,
  onFinished,
}: {
  orgId: string;
  selection: { id: string; reference: string }[];
  /** After a run's dialog is closed: the shipments that failed (to keep selected), and whether anything may have changed. */
  onFinished: (failedIds: Set<string>, changed: boolean) => void;
}) {
  const run = useBulkAction(orgId);
  const [opened, setOpened] = useState<BulkActionId | null>(null);
  const canWrite = { shipments: useCanWrite('shipments'), printers: useCanWrite('printers') };
  const offered = bulkActions.filter((action) => action.resource === null || canWrite[action.resource as 'shipments' | 'printers']);
  if (selection.length === 0 && !run.running && opened === null) return null;

  const close = () => {
    setOpened(null);
    if (run.running || run.total === 0) return;
    const failed = new Set(run.outcomes.filter((outcome) => outcome.status === 'failed').map((outcome) => outcome.shipmentId));
    // An export changes nothing: the selection stays as it was.
    if (run.action?.id === 'export') onFinished(new Set(selection.map((shipment) => shipment.id)), false);
    else onFinished(failed, true);
    run.reset();
  };

  return (
    <div role="group" aria-label="Actions on the selected shipments" className="bulk-bar">
      <span className="bulk-count">{selection.length} selected</span>
      {run.running && opened === null ? (
        <button type="button" onClick={() => setOpened(run.action?.id ?? 'print')}>
          {run.action?.running}: {run.done} of {run.total}…
        </button>
      ) : (
        offered.map((action) => (
          <button
            key={action.id}
            type="button"
            className={action.danger ? 'danger' : undefined}
            disabled={selection.length === 0 || run.running}
            onClick={() => setOpened(action.id)}
          >
            {action.button}
          </button>
        ))
      )}
      {opened !== null && <BulkActionDialog orgId={orgId} actionId={opened} open onClose={close} selection={selection} run={run} />}
    </div>
  );
}
