import { useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { WebhookCallsDialog } from './WebhookCallsDialog';
import { eventTypes, type EventType, type Webhook } from '../../../../src-shared/schemas/webhook';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Field } from '../../components/forms';
import { StatusBadge } from '../../components/StatusBadge';
import { client } from '../../lib/api';
import { useOperation } from '../../lib/useOperation';
import { useOrgId } from '../../lib/session';
import {
  CheckboxField,
  EditorForm,
  PageHeader,
  ReadOnlyNote,
  SETTINGS_PAGE_SIZE,
  SecretField,
  errorUnder,
  useCanWrite,
  useConfirmTarget,
  useEditor,
  editDeleteColumn,
  SettingsTable,
  DeleteConfirmDialog,
  RowActions,
} from './shared';

interface WebhookDraft {
  name: string;
  url: string;
  events: EventType[];
  isActive: boolean;
}

/** `shipment.dispatched` → "Shipment dispatched". */
function eventName(event: string): string {
  const [resource = '', action = ''] = event.split('.');
  return `${resource.charAt(0).toUpperCase()}${resource.slice(1)} ${action}`;
}

const eventGroups = [
  { legend: 'Shipments', events: eventTypes.filter((event) => event.startsWith('shipment.')) },
  { legend: 'Orders', events: eventTypes.filter((event) => event.startsWith('order.')) },
  { legend: 'Tracking', events: eventTypes.filter((event) => event.startsWith('tracking.')) },
];

export function WebhooksScreen() {
  const orgId = useOrgId();
  const canWrite = useCanWrite('webhooks');
  const [page, setPage] = useState(1);
  const list = useOperation('webhooks.list', { params: { orgId }, query: { page, limit: SETTINGS_PAGE_SIZE } });
  const editor = useEditor<WebhookDraft>();
  const remove = useConfirmTarget<Webhook>();
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const [showingCalls, setShowingCalls] = useState<Webhook | null>(null);
  const editing = list.data?.data.find((webhook) => webhook.id === editor.key);

  const edit = (webhook: Webhook) =>
    canWrite &&
    editor.start(webhook.id, () => ({
      name: webhook.name,
      url: webhook.url,
      events: webhook.events.filter((event): event is EventType => (eventTypes as readonly string[]).includes(event)),
      isActive: webhook.isActive,
    }));

  const columns: ColumnDef<Webhook>[] = [
    { id: 'name', header: 'Name', cell: ({ row }) => row.original.name },
    { id: 'url', header: 'Address', cell: ({ row }) => <code>{row.original.url}</code> },
    {
      id: 'events',
      header: 'Events',
      cell: ({ row }) => (row.original.events.length === eventTypes.length ? 'All events' : row.original.events.map(eventName).join(', ')),
    },
    { id: 'active', header: 'State', cell: ({ row }) => <StatusBadge status={row.original.isActive ? 'active' : 'paused'} /> },
    {
      id: 'calls',
      header: 'Calls',
      cell: ({ row }) => (
        <RowActions>
          <button type="button" onClick={() => setShowingCalls(row.original)} aria-label={`Calls to ${row.original.name}`}>
            Calls…
          </button>
        </RowActions>
      ),
    },
  ];
  if (canWrite) columns.push(editDeleteColumn(edit, remove.ask));

  const save = async (draft: WebhookDraft) => {
    const body = { name: draft.name.trim(), url: draft.url.trim(), events: draft.events, isActive: draft.isActive };
    if (editor.key === 'new') {
      const answer = await client.call('webhooks.create', { params: { orgId }, body });
      setCreated({ name: answer.name, secret: answer.secret });
    } else {
      await client.call('webhooks.update', { params: { orgId, webhookId: editor.key ?? '' }, body });
    }
    editor.finish();
    list.reload();
  };

  return (
    <div className="settings-screen">
      <PageHeader title="Webhooks">
        {canWrite && (
          <button type="button" className="primary" onClick={() => editor.start('new', () => ({ name: '', url: '', events: [], isActive: true }))}>
            New webhook
          </button>
        )}
      </PageHeader>
      <p className="lead">
        Shipdesk tells other systems about changes by calling their address, signed with the webhook’s secret. Failed calls are retried for six hours.
      </p>
      {!canWrite && <ReadOnlyNote what="webhooks" />}
      <SettingsTable
        label="Webhooks"
        columns={columns}
        list={list}
        page={page}
        onPageChange={setPage}
        onOpen={canWrite ? edit : undefined}
        empty="No webhooks."
      />

      <Dialog title={editor.key === 'new' ? 'New webhook' : `Edit ${editing?.name ?? 'webhook'}`} open={editor.open} onClose={editor.close} wide>
        {editor.draft && (
          <EditorForm
            onSubmit={() => save(editor.draft as WebhookDraft)}
            onCancel={editor.close}
            submitLabel={editor.key === 'new' ? 'Create webhook' : 'Save changes'}
          >
            {(errors) => (
              <>
                <WebhookFields draft={editor.draft as WebhookDraft} onChange={editor.setDraft} errors={errors} />
                {editor.key !== 'new' && editor.key && <WebhookSecret webhookId={editor.key} />}
              </>
            )}
          </EditorForm>
        )}
      </Dialog>

      <Dialog title="Webhook created" open={created !== null} onClose={() => setCreated(null)}>
        {created && (
          <div>
            <p>
              Use this secret to check the <code>Shipdesk-Signature</code> header of each call to <strong>{created.name}</strong>. You can see it again by
              editing the webhook.
            </p>
            <SecretField label="Signing secret" value={created.secret} />
            <div className="form-actions">
              <button type="button" className="primary" onClick={() => setCreated(null)}>
                Done
              </button>
            </div>
          </div>
        )}
      </Dialog>

      <WebhookCallsDialog webhook={showingCalls} onClose={() => setShowingCalls(null)} canWrite={canWrite} />

      <DeleteConfirmDialog
        confirm={remove}
        noun="webhook"
        consequence="Calls not yet delivered to it are dropped."
        remove={(target) => client.call('webhooks.delete', { params: { orgId, webhookId: target.id } })}
        onDeleted={list.reload}
      />
    </div>
  );
}

/** The signing secret, read fresh: lists never carry it. */
function WebhookSecret({ webhookId }: { webhookId: string }) {
  const orgId = useOrgId();
  const webhook = useOperation('webhooks.get', { params: { orgId, webhookId } });
  if (webhook.error) return <ErrorNotice error={webhook.error} title="The signing secret could not be read" />;
  if (!webhook.data) return <p className="loading">Reading the signing secret…</p>;
  return <SecretField label="Signing secret" value={webhook.data.secret} />;
}

function WebhookFields({
  draft,
  onChange,
  errors,
}: {
  draft: WebhookDraft;
  onChange: (update: (draft: WebhookDraft) => WebhookDraft) => void;
  errors: Record<string, string>;
}) {
  const toggle = (event: EventType, on: boolean) =>
    onChange((current) => ({ ...current, events: on ? [...current.events, event] : current.events.filter((item) => item !== event) }));
  const all = draft.events.length === eventTypes.length;
  const eventsError = errorUnder(errors, 'events');
  return (
    <>
      <div className="form-grid">
        <Field label="Name (required)" error={errors.name}>
          <input value={draft.name} onChange={(event) => onChange((current) => ({ ...current, name: event.target.value }))} autoFocus />
        </Field>
        <Field label="Address (URL, required)" error={errors.url} hint="http:// or https://, e.g. https://erp.example.com/shipdesk">
          <input type="url" value={draft.url} onChange={(event) => onChange((current) => ({ ...current, url: event.target.value }))} spellCheck={false} />
        </Field>
      </div>
      <fieldset className={eventsError ? 'field-invalid' : undefined}>
        <legend>Events to send (at least one)</legend>
        <button type="button" onClick={() => onChange((current) => ({ ...current, events: all ? [] : [...eventTypes] }))}>
          {all ? 'Untick all' : 'Tick all'}
        </button>
        <div className="grid-3">
          {eventGroups.map((group) => (
            <fieldset key={group.legend}>
              <legend>{group.legend}</legend>
              {group.events.map((event) => (
                <CheckboxField key={event} label={eventName(event)} checked={draft.events.includes(event)} onChange={(checked) => toggle(event, checked)} />
              ))}
            </fieldset>
          ))}
        </div>
        {eventsError && <small className="field-error">{eventsError}</small>}
      </fieldset>
      <CheckboxField
        label="Active"
        checked={draft.isActive}
        onChange={(isActive) => onChange((current) => ({ ...current, isActive }))}
        hint="A paused webhook keeps its settings but is not called"
      />
      {errors.isActive && <small className="field-error">{errors.isActive}</small>}
    </>
  );
}
