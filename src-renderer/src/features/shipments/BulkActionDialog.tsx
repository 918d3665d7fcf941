import { useState } from 'react';
import { Dialog } from '../../components/Dialog';
import { useOperation } from '../../lib/useOperation';
import { bulkActionById, type BulkActionId, type BulkOptions, type BulkRun } from './bulkActions';
import { BulkResults } from './BulkResults';

/**
 * One dialog for every bulk action: what it will do (and the rule or printer it needs), then the
 * progress and a line per shipment: done, or failed with the reason in words.
 */
export function BulkActionDialog({
  orgId,
  actionId,
  open,
  onClose,
  selection,
  run,
}: {
  orgId: string;
  actionId: BulkActionId;
  open: boolean;
  onClose: () => void;
  selection: { id: string; reference: string }[];
  run: BulkRun;
}) {
  // While a run is on, the dialog shows that run, whichever button opened it.
  const action = run.action ?? bulkActionById(actionId);
  const idle = !run.running && run.total === 0;
  const finished = !run.running && run.total > 0;
  const [options, setOptions] = useState<BulkOptions>({});
  const rules = useOperation('shippingRules.list', open && idle && action.id === 'applyRule' ? { params: { orgId }, query: { limit: 100 } } : null);
  const printers = useOperation('printers.list', open && idle && action.id === 'print' ? { params: { orgId }, query: { limit: 100 } } : null);
  const ruleList = rules.data?.data ?? [];
  const missingRule = action.id === 'applyRule' && !options.shippingRuleId;
  const failed = run.outcomes.filter((outcome) => outcome.status === 'failed');
  const doneCount = run.outcomes.length - failed.length;

  return (
    <Dialog title={action.title} open={open} onClose={onClose} wide>
      <div>
        {idle && (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (!missingRule) void run.start(action.id, selection, options);
            }}
          >
            <p>{action.explain(selection.length)}</p>
            {action.id === 'applyRule' && (
              <div className="field">
                <label htmlFor="bulk-rule">Shipping rule</label>
                <select
                  id="bulk-rule"
                  data-autofocus
                  required
                  value={options.shippingRuleId ?? ''}
                  onChange={(event) => setOptions({ shippingRuleId: event.target.value || undefined })}
                >
                  <option value="">{rules.loading ? 'Loading the rules…' : ruleList.length ? 'Choose a rule' : 'No shipping rules yet'}</option>
                  {ruleList.map((rule) => (
                    <option key={rule.id} value={rule.id}>
                      {rule.name}
                    </option>
                  ))}
                </select>
              </div>
            )}
            {action.id === 'print' && (
              <div className="field">
                <label htmlFor="bulk-printer">Printer</label>
                <select id="bulk-printer" value={options.printerId ?? ''} onChange={(event) => setOptions({ printerId: event.target.value || undefined })}>
                  <option value="">The default printer for each label’s format</option>
                  {(printers.data?.data ?? []).map((printer) => (
                    <option key={printer.id} value={printer.id}>
                      {printer.name}
                    </option>
                  ))}
                </select>
              </div>
            )}
            <div className="form-actions">
              <button type="button" onClick={onClose}>
                Not now
              </button>
              <button
                type="submit"
                className={action.danger ? 'danger' : 'primary'}
                disabled={missingRule}
                data-autofocus={action.id !== 'applyRule' || undefined}
              >
                {action.title} ({selection.length})
              </button>
            </div>
          </form>
        )}
        <BulkResults
          label={`${action.title} results`}
          running={run.running}
          done={run.done}
          total={run.total}
          runningWord={action.running}
          summary={`${doneCount} ${action.doneWord.toLowerCase()}, ${failed.length} failed.`}
          rows={run.outcomes.map((outcome) => ({
            shipmentId: outcome.shipmentId,
            reference: outcome.reference,
            ok: outcome.status === 'done',
            result: outcome.status === 'done' ? action.doneWord : 'Failed',
            reason:
              outcome.status === 'done' ? (
                outcome.summary
              ) : (
                <>
                  <strong>{outcome.summary}</strong> {outcome.message} <code>{outcome.code}</code>
                </>
              ),
          }))}
        />
        {finished && (
          <div className="form-actions">
            {failed.length > 0 && (
              <button
                type="button"
                onClick={() =>
                  void run.start(
                    action.id,
                    failed.map((outcome) => ({ id: outcome.shipmentId, reference: outcome.reference })),
                    options,
                  )
                }
              >
                Try the {failed.length} failed again
              </button>
            )}
            <button type="button" className="primary" onClick={onClose}>
              Close
            </button>
          </div>
        )}
      </div>
    </Dialog>
  );
}
