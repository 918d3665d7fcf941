import { useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { ApiError } from '../../../../src-shared/errors';
import type { ApiToken } from '../../../../src-shared/schemas/apiToken';
import { grants, resources, roleScopes, type Scope } from '../../../../src-shared/scopes';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/forms';
import { client } from '../../lib/api';
import { useOperation } from '../../lib/useOperation';
import { formatDateTime } from '../../lib/format';
import { useOrgId } from '../../lib/session';
import {
  ConfirmDialog,
  EditorForm,
  PageHeader,
  ReadOnlyNote,
  RowActions,
  SETTINGS_PAGE_SIZE,
  SecretField,
  errorUnder,
  numberOrUndefined,
  useCanWrite,
  useConfirmTarget,
  useEditor,
  useRole,
  SettingsTable,
} from './shared';

interface TokenDraft {
  name: string;
  scopes: Scope[];
  expiresInDays: string;
}

const scopeRows = ['all', ...resources] as const;

/** What each scope's records are called on screen. */
const recordNames: Record<(typeof scopeRows)[number], string> = {
  all: 'All records',
  api_tokens: 'API tokens',
  orgs: 'Organization and usage',
  users: 'Users',
  roles: 'Roles',
  org_members: 'Team members',
  carriers: 'Carriers',
  sender_addresses: 'Sender addresses',
  shipping_rules: 'Shipping rules',
  shipments: 'Shipments',
  orders: 'Orders',
  order_channels: 'Order channels',
  return_portals: 'Return portals',
  printers: 'Printers',
  webhooks: 'Webhooks',
};

/** `["read:all", "write:shipments"]` → "Read everything; write Shipments", in the form's words. */
function scopesSummary(scopes: string[]): string {
  if (scopes.includes('write:all')) return 'Everything (read and write)';
  const named = (action: string) =>
    scopes
      .filter((scope) => scope.startsWith(`${action}:`) && scope !== `${action}:all`)
      .map((scope) => recordNames[scope.slice(action.length + 1) as keyof typeof recordNames] ?? scope.slice(action.length + 1));
  const writes = named('write');
  // Write includes read: "write Shipments" says it all.
  const reads = named('read').filter((name) => !writes.includes(name));
  return [scopes.includes('read:all') ? 'Read everything' : reads.length ? `read ${reads.join(', ')}` : '', writes.length ? `write ${writes.join(', ')}` : '']
    .filter(Boolean)
    .join('; ')
    .replace(/^./, (first) => first.toUpperCase());
}

function expiry(expiresAt: string | null): string {
  if (!expiresAt) return 'Never';
  return new Date(expiresAt).getTime() < Date.now() ? `Expired ${formatDateTime(expiresAt)}` : formatDateTime(expiresAt);
}

export function ApiTokensScreen() {
  const orgId = useOrgId();
  const canWrite = useCanWrite('api_tokens');
  const [page, setPage] = useState(1);
  const list = useOperation('apiTokens.list', { params: { orgId }, query: { page, limit: SETTINGS_PAGE_SIZE } });
  const creator = useEditor<TokenDraft>();
  const renamer = useEditor<{ name: string }>();
  const revoke = useConfirmTarget<ApiToken>();
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const renaming = list.data?.data.find((token) => token.id === renamer.key);

  const rename = (token: ApiToken) => canWrite && renamer.start(token.id, () => ({ name: token.name }));

  const columns: ColumnDef<ApiToken>[] = [
    { id: 'name', header: 'Name', cell: ({ row }) => row.original.name },
    { id: 'prefix', header: 'Starts with', cell: ({ row }) => <code>{row.original.tokenPrefix}…</code> },
    { id: 'scopes', header: 'Access', cell: ({ row }) => scopesSummary(row.original.scopes) },
    { id: 'lastUsed', header: 'Last used', cell: ({ row }) => (row.original.lastUsedAt ? formatDateTime(row.original.lastUsedAt) : 'Never') },
    { id: 'expires', header: 'Expires', cell: ({ row }) => expiry(row.original.expiresAt) },
  ];
  if (canWrite) {
    columns.push({
      id: 'actions',
      header: 'Actions',
      cell: ({ row }) => (
        <RowActions>
          <button type="button" onClick={() => rename(row.original)} aria-label={`Rename ${row.original.name}`}>
            Rename
          </button>
          <button type="button" className="danger" onClick={() => revoke.ask(row.original)} aria-label={`Revoke ${row.original.name}`}>
            Revoke
          </button>
        </RowActions>
      ),
    });
  }

  const create = async (draft: TokenDraft) => {
    const days = numberOrUndefined(draft.expiresInDays);
    const problems: { path: string; message: string }[] = [];
    if (draft.name.trim() === '') problems.push({ path: 'body.name', message: 'Required' });
    if (days !== undefined && !(Number.isInteger(days) && days >= 1 && days <= 365))
      problems.push({ path: 'body.expiresInDays', message: 'A whole number of days from 1 to 365, or empty for never' });
    if (draft.scopes.length === 0) problems.push({ path: 'body.scopes', message: 'Tick at least one kind of access' });
    if (problems.length > 0) throw new ApiError('VALIDATION_FAILED', problems[0]?.message ?? '', { details: problems });
    const answer = await client.call('apiTokens.create', {
      params: { orgId },
      body: { name: draft.name.trim(), scopes: draft.scopes, ...(days === undefined ? {} : { expiresInDays: days }) },
    });
    creator.finish();
    // The full token exists only in this answer: it is held in memory until the dialog closes.
    setCreated({ name: answer.name, token: answer.token });
    list.reload();
  };

  return (
    <div className="settings-screen">
      <PageHeader title="API tokens">
        {canWrite && (
          <button type="button" className="primary" onClick={() => creator.start('new', () => ({ name: '', scopes: [], expiresInDays: '' }))}>
            New API token
          </button>
        )}
      </PageHeader>
      <p className="lead">Tokens let scripts and other systems use the Shipdesk API. Each one has only the access ticked for it.</p>
      {!canWrite && <ReadOnlyNote what="API tokens" />}
      <SettingsTable
        label="API tokens"
        columns={columns}
        list={list}
        page={page}
        onPageChange={setPage}
        onOpen={canWrite ? rename : undefined}
        empty="No API tokens."
      />

      <Dialog title="New API token" open={creator.open} onClose={creator.close} wide>
        {creator.draft && (
          <EditorForm onSubmit={() => create(creator.draft as TokenDraft)} onCancel={creator.close} submitLabel="Create token" busyLabel="Creating…">
            {(errors) => <TokenFields draft={creator.draft as TokenDraft} onChange={creator.setDraft} errors={errors} />}
          </EditorForm>
        )}
      </Dialog>

      {/* The token is gone once this closes: only "I have copied it" closes it, never Escape or a stray ×. */}
      <Dialog title="Your new API token" open={created !== null} onClose={() => setCreated(null)} wide explicitClose>
        {created && (
          <div>
            <div className="secret-warning" role="alert">
              <strong>Copy this token now. It will not be shown again.</strong>
              <p>Shipdesk keeps only a fingerprint of it. If it is lost, revoke it and create a new one.</p>
            </div>
            <SecretField label={`Token “${created.name}”`} value={created.token} />
            <div className="form-actions">
              <button type="button" className="primary" onClick={() => setCreated(null)}>
                I have copied it
              </button>
            </div>
          </div>
        )}
      </Dialog>

      <Dialog title={`Rename ${renaming?.name ?? 'API token'}`} open={renamer.open} onClose={renamer.close}>
        {renamer.draft && (
          <EditorForm
            onSubmit={async () => {
              await client.call('apiTokens.update', { params: { orgId, tokenId: renamer.key ?? '' }, body: { name: (renamer.draft?.name ?? '').trim() } });
              renamer.finish();
              list.reload();
            }}
            onCancel={renamer.close}
            submitLabel="Rename"
          >
            {(errors) => (
              <Field label="Name" error={errors.name}>
                <input
                  value={renamer.draft?.name ?? ''}
                  onChange={(event) => renamer.setDraft(() => ({ name: event.target.value }))}
                  maxLength={100}
                  autoFocus
                />
              </Field>
            )}
          </EditorForm>
        )}
      </Dialog>

      <ConfirmDialog
        open={revoke.open}
        title="Revoke API token"
        message={
          <p>
            Revoke <strong>{revoke.target?.name}</strong> (<code>{revoke.target?.tokenPrefix}…</code>)? Anything using it is refused from now on. This cannot be
            undone.
          </p>
        }
        confirmLabel="Revoke token"
        onCancel={revoke.cancel}
        onConfirm={async () => {
          await client.call('apiTokens.delete', { params: { orgId, tokenId: revoke.target?.id ?? '' } });
          revoke.cancel();
          list.reload();
        }}
      />
    </div>
  );
}

function TokenFields({
  draft,
  onChange,
  errors,
}: {
  draft: TokenDraft;
  onChange: (update: (draft: TokenDraft) => TokenDraft) => void;
  errors: Record<string, string>;
}) {
  const role = useRole();
  const held = role ? roleScopes[role] : [];
  const toggle = (scope: Scope, on: boolean) =>
    onChange((current) => ({ ...current, scopes: on ? [...current.scopes, scope] : current.scopes.filter((item) => item !== scope) }));
  const scopeError = errorUnder(errors, 'scopes');
  return (
    <>
      <div className="form-grid">
        <Field label="Name (required)" error={errors.name} hint="What uses it, e.g. Webshop sync">
          <input value={draft.name} onChange={(event) => onChange((current) => ({ ...current, name: event.target.value }))} maxLength={100} autoFocus />
        </Field>
        <Field label="Expires after (days)" error={errors.expiresInDays} hint="1 to 365; leave empty for a token that does not expire">
          <input
            inputMode="numeric"
            value={draft.expiresInDays}
            onChange={(event) => onChange((current) => ({ ...current, expiresInDays: event.target.value }))}
          />
        </Field>
      </div>
      <fieldset className={scopeError ? 'scopes field-invalid' : 'scopes'} aria-describedby="scopes-hint">
        <legend>Access (at least one)</legend>
        <p id="scopes-hint" className="hint">
          Write includes read. “All” covers every kind of record. A token can have only access your own role has.
        </p>
        <table className="plain scope-table">
          <thead>
            <tr>
              <th scope="col">Records</th>
              <th scope="col">Read</th>
              <th scope="col">Write</th>
            </tr>
          </thead>
          <tbody>
            {scopeRows.map((resource) => (
              <tr key={resource}>
                <th scope="row">{recordNames[resource]}</th>
                {(['read', 'write'] as const).map((action) => {
                  const scope = `${action}:${resource}` as Scope;
                  return (
                    <td key={action}>
                      <input
                        type="checkbox"
                        aria-label={`${action === 'read' ? 'Read' : 'Write'} ${recordNames[resource]}`}
                        checked={draft.scopes.includes(scope)}
                        disabled={!grants(held, scope)}
                        onChange={(event) => toggle(scope, event.target.checked)}
                      />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
        {scopeError && <small className="field-error">{scopeError}</small>}
      </fieldset>
    </>
  );
}
