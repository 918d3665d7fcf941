import { useState } from 'react';
import type { Webhook, WebhookDelivery } from '../../../../src-shared/schemas/webhook';
import { client } from '../../lib/api';
import { useOperation } from '../../lib/useOperation';
import { useOrgId } from '../../lib/session';
import { DateCell } from '../../components/cells';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';

const SHOWN = 20;

/**
 * A webhook's calls (GET …/deliveries, newest first) and a test call (POST …/test, a `ping`), so a
 * lead can see whether the other system gets Shipdesk's calls, and why not.
 */
export function WebhookCallsDialog({ webhook, onClose, canWrite }: { webhook: Webhook | null; onClose: () => void; canWrite: boolean }) {
  return (
    <Dialog title={webhook ? `Calls to ${webhook.name}` : 'Calls'} open={webhook !== null} onClose={onClose} wide>
      {webhook && <WebhookCalls webhook={webhook} canWrite={canWrite} />}
    </Dialog>
  );
}

function WebhookCalls({ webhook, canWrite }: { webhook: Webhook; canWrite: boolean }) {
  const orgId = useOrgId();
  const calls = useOperation('webhooks.deliveries', { params: { orgId, webhookId: webhook.id }, query: { limit: SHOWN } });
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<WebhookDelivery | null>(null);
  const [error, setError] = useState<unknown>(null);

  const test = async () => {
    setTesting(true);
    setError(null);
    try {
      setTested(await client.call('webhooks.test', { params: { orgId, webhookId: webhook.id } }));
      calls.reload();
    } catch (caught) {
      setError(caught);
    } finally {
      setTesting(false);
    }
  };

  return (
    <div>
      <p>
        Calls go to <code>{webhook.url}</code>. A call that fails is tried again after 30 s, 2 min, 10 min, 1 h and 6 h.
      </p>
      {canWrite && (
        <div className="form-actions start">
          <button type="button" onClick={() => void test()} disabled={testing} data-autofocus>
            {testing ? 'Calling…' : 'Send a test call'}
          </button>
          {tested && (
            <span role="status" className={tested.success ? 'call-result ok' : 'call-result bad'}>
              {tested.success ? `Answered ${tested.statusCode ?? ''}: it works.` : `Failed: ${tested.error ?? `answered ${tested.statusCode ?? '?'}`}`}
            </span>
          )}
        </div>
      )}
      <ErrorNotice error={error} title="The test call could not be made" />
      <ErrorNotice error={calls.error} title="The calls could not be loaded" />
      {calls.data && calls.data.data.length === 0 && <p className="muted">No calls yet.</p>}
      {calls.data && calls.data.data.length > 0 && (
        <div className="table-scroll">
          <table className="plain" aria-label={`Calls to ${webhook.name}`}>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Try</th>
                <th scope="col">Answer</th>
              </tr>
            </thead>
            <tbody>
              {calls.data.data.map((call) => (
                <tr key={call.id}>
                  <td>
                    <DateCell iso={call.createdAt} />
                  </td>
                  <td>{call.event}</td>
                  <td className="numeric">{call.attempt}</td>
                  <td className="wrap">
                    {call.success ? `${call.statusCode ?? ''} OK` : (call.error ?? (call.statusCode === null ? 'Waiting' : `Answered ${call.statusCode}`))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {calls.data.total > SHOWN && (
            <p className="muted">
              The newest {SHOWN} of {calls.data.total} calls.
            </p>
          )}
        </div>
      )}
    </div>
  );
}
