import { useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { orderChannelSecretKeys, orderChannelTypes, type OrderChannel, type OrderChannelType } from '../../../../src-shared/schemas/orderChannel';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/forms';
import { client } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useOperation } from '../../lib/useOperation';
import { useOrgId } from '../../lib/session';
import {
  EditorForm,
  PageHeader,
  ReadOnlyNote,
  SETTINGS_PAGE_SIZE,
  useCanWrite,
  useConfirmTarget,
  useEditor,
  useStartNewFromLink,
  editDeleteColumn,
  SettingsTable,
  DeleteConfirmDialog,
} from './shared';

type SecretKey = (typeof orderChannelSecretKeys)[number];

interface ChannelDraft {
  name: string;
  type: OrderChannelType;
  /** Shopify */
  shopDomain: string;
  /** WooCommerce */
  siteUrl: string;
  /** Minutes between scheduled syncs, as typed (shops only); 0 turns the schedule off. */
  syncInterval: string;
  /** Credentials as typed; empty means "keep the saved one" when there is one. */
  secrets: Record<SecretKey, string>;
  /** Credentials as a read shows them (masked); sent back unchanged when the field is left empty. */
  savedSecrets: Partial<Record<SecretKey, string>>;
}

export const channelTypeNames: Record<OrderChannelType, string> = {
  manual: 'Manual',
  csv: 'CSV import',
  shopify: 'Shopify',
  woocommerce: 'WooCommerce',
};

const channelTypeDescriptions: Record<OrderChannelType, string> = {
  manual: 'Orders typed in with “New order”, e.g. phone or counter orders.',
  csv: 'Orders imported from spreadsheet files.',
  shopify: 'A Shopify shop, reached with an Admin API access token.',
  woocommerce: 'A WooCommerce shop, reached with a REST API key and secret.',
};

/** The credentials each type asks for, in the order the forms show them. */
const secretFields: Record<OrderChannelType, { key: SecretKey; label: string; hint: string }[]> = {
  manual: [],
  csv: [],
  shopify: [{ key: 'accessToken', label: 'Admin API access token', hint: 'From the shop’s custom app, starts with shpat_' }],
  woocommerce: [
    { key: 'consumerKey', label: 'Consumer key', hint: 'WooCommerce › Settings › Advanced › REST API, starts with ck_' },
    { key: 'consumerSecret', label: 'Consumer secret', hint: 'Shown next to the key when it is made, starts with cs_' },
  ],
};

const noSecrets: Record<SecretKey, string> = { accessToken: '', consumerKey: '', consumerSecret: '' };

const blank: ChannelDraft = { name: '', type: 'manual', shopDomain: '', siteUrl: '', syncInterval: '10', secrets: noSecrets, savedSecrets: {} };

const configText = (channel: OrderChannel, key: string): string => {
  const value = channel.config[key];
  return typeof value === 'string' ? value : '';
};

function draftOf(channel: OrderChannel): ChannelDraft {
  const savedSecrets: Partial<Record<SecretKey, string>> = {};
  for (const key of orderChannelSecretKeys) {
    const value = configText(channel, key);
    if (value !== '') savedSecrets[key] = value;
  }
  return {
    name: channel.name,
    type: channel.type,
    shopDomain: configText(channel, 'shopDomain'),
    siteUrl: configText(channel, 'siteUrl'),
    syncInterval: typeof channel.config.syncIntervalMinutes === 'number' ? String(channel.config.syncIntervalMinutes) : '10',
    secrets: noSecrets,
    savedSecrets,
  };
}

/** A credential as it is sent: the one typed, else the masked value of the saved one (the server keeps it). */
function secretOf(draft: ChannelDraft, key: SecretKey): string {
  const typed = draft.secrets[key].trim();
  return typed !== '' ? typed : (draft.savedSecrets[key] ?? '');
}

/** The interval as sent; text that is no number goes as NaN (null in JSON), which the server reports at its field. */
function syncIntervalOf(draft: ChannelDraft): number {
  const typed = draft.syncInterval.trim();
  return typed === '' ? Number.NaN : Number(typed);
}

const shopifyConfig = (draft: ChannelDraft) => ({
  shopDomain: draft.shopDomain.trim(),
  accessToken: secretOf(draft, 'accessToken'),
  syncIntervalMinutes: syncIntervalOf(draft),
});
const woocommerceConfig = (draft: ChannelDraft) => ({
  siteUrl: draft.siteUrl.trim(),
  consumerKey: secretOf(draft, 'consumerKey'),
  consumerSecret: secretOf(draft, 'consumerSecret'),
  syncIntervalMinutes: syncIntervalOf(draft),
});

/** The body of a create: shop channels with their connection; manual and CSV ones need none. */
function createBodyOf(draft: ChannelDraft) {
  const name = draft.name.trim();
  if (draft.type === 'shopify') return { name, type: draft.type, config: shopifyConfig(draft) };
  if (draft.type === 'woocommerce') return { name, type: draft.type, config: woocommerceConfig(draft) };
  return { name, type: draft.type };
}

/** The body of an update. A new config replaces the old whole, so manual and CSV channels send none and keep theirs. */
function updateBodyOf(draft: ChannelDraft) {
  const name = draft.name.trim();
  if (draft.type === 'shopify') return { name, config: shopifyConfig(draft) };
  if (draft.type === 'woocommerce') return { name, config: woocommerceConfig(draft) };
  return { name };
}

/** A shop channel's scheduled sync in one line: "Last synced … · next sync … · last error …". */
export function syncSummary(channel: OrderChannel): string {
  const sync = channel.sync;
  if (!sync) return '—';
  const parts = [sync.lastSyncedAt ? `Last synced ${formatDateTime(sync.lastSyncedAt)}` : 'Not synced yet'];
  parts.push(sync.nextSyncAt ? `next sync ${formatDateTime(sync.nextSyncAt)}` : 'no scheduled sync');
  if (sync.lastError) parts.push(`last error: ${sync.lastError}`);
  return parts.join(' · ');
}

/** Where a shop channel's orders come from, for the list. */
function shopOf(channel: OrderChannel): string {
  if (channel.type === 'shopify') return configText(channel, 'shopDomain') || '—';
  if (channel.type === 'woocommerce') return configText(channel, 'siteUrl') || '—';
  return '—';
}

export function OrderChannelsScreen() {
  const orgId = useOrgId();
  const canWrite = useCanWrite('order_channels');
  const [page, setPage] = useState(1);
  const list = useOperation('orderChannels.list', { params: { orgId }, query: { page, limit: SETTINGS_PAGE_SIZE } });
  const editor = useEditor<ChannelDraft>();
  const remove = useConfirmTarget<OrderChannel>();
  const editing = list.data?.data.find((channel) => channel.id === editor.key);

  useStartNewFromLink(canWrite, () => editor.start('new', () => ({ ...blank })));
  const edit = (channel: OrderChannel) => canWrite && editor.start(channel.id, () => draftOf(channel));

  const columns: ColumnDef<OrderChannel>[] = [
    { id: 'name', header: 'Name', cell: ({ row }) => row.original.name },
    { id: 'type', header: 'Type', cell: ({ row }) => channelTypeNames[row.original.type] },
    { id: 'shop', header: 'Shop', cell: ({ row }) => shopOf(row.original) },
    { id: 'sync', header: 'Sync', cell: ({ row }) => syncSummary(row.original) },
  ];
  if (canWrite) columns.push(editDeleteColumn(edit, remove.ask));

  const save = async (draft: ChannelDraft) => {
    if (editor.key === 'new') await client.call('orderChannels.create', { params: { orgId }, body: createBodyOf(draft) });
    else await client.call('orderChannels.update', { params: { orgId, channelId: editor.key ?? '' }, body: updateBodyOf(draft) });
    editor.finish();
    list.reload();
  };

  return (
    <div className="settings-screen">
      <PageHeader title="Order channels">
        {canWrite && (
          <button type="button" className="primary" onClick={() => editor.start('new', () => ({ ...blank }))}>
            New order channel
          </button>
        )}
      </PageHeader>
      <p className="lead">
        Where orders come from: typed in by hand, imported from files, or fetched from a Shopify or WooCommerce shop. Every order belongs to one.
      </p>
      {!canWrite && <ReadOnlyNote what="order channels" />}
      <SettingsTable
        label="Order channels"
        columns={columns}
        list={list}
        page={page}
        onPageChange={setPage}
        onOpen={canWrite ? edit : undefined}
        empty="No order channels yet. Add a manual one to type in orders with “New order”."
      />

      <Dialog title={editor.key === 'new' ? 'New order channel' : `Edit ${editing?.name ?? 'order channel'}`} open={editor.open} onClose={editor.close} wide>
        {editing?.sync && <p className="hint">{syncSummary(editing)}</p>}
        {editor.draft && (
          <EditorForm
            onSubmit={() => save(editor.draft as ChannelDraft)}
            onCancel={editor.close}
            submitLabel={editor.key === 'new' ? 'Create order channel' : 'Save changes'}
          >
            {(errors) => <ChannelFields draft={editor.draft as ChannelDraft} onChange={editor.setDraft} errors={errors} creating={editor.key === 'new'} />}
          </EditorForm>
        )}
      </Dialog>

      <DeleteConfirmDialog
        confirm={remove}
        noun="order channel"
        consequence="Its orders stay, but no new orders can be added to it."
        remove={(target) => client.call('orderChannels.delete', { params: { orgId, channelId: target.id } })}
        onDeleted={list.reload}
      />
    </div>
  );
}

function ChannelFields({
  draft,
  onChange,
  errors,
  creating,
}: {
  draft: ChannelDraft;
  onChange: (update: (draft: ChannelDraft) => ChannelDraft) => void;
  errors: Record<string, string>;
  creating: boolean;
}) {
  const set = <K extends keyof ChannelDraft>(key: K, value: ChannelDraft[K]) => onChange((current) => ({ ...current, [key]: value }));
  const setSecret = (key: SecretKey, value: string) => onChange((current) => ({ ...current, secrets: { ...current.secrets, [key]: value } }));
  return (
    <>
      <div className="form-grid">
        <Field label="Name (required)" error={errors.name} hint="How the channel is shown with its orders, e.g. Web shop">
          <input value={draft.name} onChange={(event) => set('name', event.target.value)} autoFocus />
        </Field>
      </div>
      {creating ? (
        <fieldset className={errors.type ? 'choice-cards field-invalid' : 'choice-cards'}>
          <legend>Type (cannot be changed later)</legend>
          {orderChannelTypes.map((type) => (
            <label key={type} className="choice-card">
              <input type="radio" name="channel-type" value={type} checked={draft.type === type} onChange={() => set('type', type)} />
              <span>
                <strong>{channelTypeNames[type]}</strong>
                <br />
                <small>{channelTypeDescriptions[type]}</small>
              </span>
            </label>
          ))}
          {errors.type && <small className="field-error">{errors.type}</small>}
        </fieldset>
      ) : (
        <p>
          Type: <strong>{channelTypeNames[draft.type]}</strong> <small className="hint">(fixed once the channel is made)</small>
        </p>
      )}
      {(draft.type === 'shopify' || draft.type === 'woocommerce') && (
        <fieldset>
          <legend>{channelTypeNames[draft.type]} connection</legend>
          <div className="form-grid">
            {draft.type === 'shopify' ? (
              <Field label="Shop domain (required)" error={errors['config.shopDomain']} hint="The myshopify.com domain, e.g. acme.myshopify.com">
                <input value={draft.shopDomain} onChange={(event) => set('shopDomain', event.target.value)} spellCheck={false} autoComplete="off" />
              </Field>
            ) : (
              <Field label="Site URL (required)" error={errors['config.siteUrl']} hint="The shop’s https:// address, e.g. https://shop.example.com">
                <input type="url" value={draft.siteUrl} onChange={(event) => set('siteUrl', event.target.value)} spellCheck={false} autoComplete="off" />
              </Field>
            )}
            <Field
              label="Sync every (minutes)"
              error={errors['config.syncIntervalMinutes']}
              hint="Orders are fetched from the shop this often while Shipdesk runs; 0 turns it off (use “Sync” instead). Up to 1440."
            >
              <input
                type="number"
                inputMode="numeric"
                min={0}
                max={1440}
                step={1}
                value={draft.syncInterval}
                onChange={(event) => set('syncInterval', event.target.value)}
              />
            </Field>
            {secretFields[draft.type].map((field) => {
              const saved = draft.savedSecrets[field.key];
              return (
                <Field
                  key={field.key}
                  label={`${field.label} (required)`}
                  error={errors[`config.${field.key}`]}
                  hint={saved ? `Saved as ${saved}; leave empty to keep it, or type a new one.` : field.hint}
                >
                  <input
                    type="password"
                    value={draft.secrets[field.key]}
                    onChange={(event) => setSecret(field.key, event.target.value)}
                    placeholder={saved ?? ''}
                    autoComplete="new-password"
                    spellCheck={false}
                  />
                </Field>
              );
            })}
          </div>
        </fieldset>
      )}
    </>
  );
}
