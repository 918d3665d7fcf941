import { useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import type { AvailableCarrier, Carrier, CarrierField } from '../../../../src-shared/schemas/carrier';
import { EmptyChoice } from '../../components/EmptyChoice';
import { Dialog } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Field } from '../../components/forms';
import { client } from '../../lib/api';
import { useOperation } from '../../lib/useOperation';
import { useOrgId } from '../../lib/session';
import { CarrierProducts } from './CarrierProducts';
import { ConnectionTest, useRemoteOptions, type CarrierTarget, type RemoteOptions } from './carrierChecks';
import { TestBadge } from '../../components/TestModeBadge';
import { hasTestMode, inTestMode } from '../../lib/carrierTestMode';
import {
  CheckboxField,
  EditorForm,
  PageHeader,
  ReadOnlyNote,
  RowActions,
  SETTINGS_PAGE_SIZE,
  invalid,
  useCanWrite,
  useConfirmTarget,
  useEditor,
  useStartNewFromLink,
  SettingsTable,
  DeleteConfirmDialog,
} from './shared';

interface CarrierDraft {
  slug: string;
  name: string;
  senderAddressId: string;
  /** Text for text, password, select and number fields; true/false for boolean ones. */
  config: Record<string, string | boolean>;
  /** Secrets as a read shows them (masked); sent back unchanged when the field is left empty. */
  savedSecrets: Record<string, string>;
}

const fieldsOf = (entry: AvailableCarrier | undefined): CarrierField[] => (entry ? [...entry.requiredFields, ...entry.optionalFields] : []);

/** decisions §13: test mode is on until switched off, so a new carrier starts in its sandbox. */
const booleanDefault = (field: CarrierField) => field.key === 'testMode';

function draftOf(carrier: Carrier, entry: AvailableCarrier | undefined): CarrierDraft {
  const config: Record<string, string | boolean> = {};
  const savedSecrets: Record<string, string> = {};
  for (const field of fieldsOf(entry)) {
    const value = carrier.config[field.key];
    if (field.type === 'boolean') config[field.key] = value === undefined ? booleanDefault(field) : value === true;
    else if (field.type === 'password') {
      config[field.key] = '';
      if (typeof value === 'string' && value !== '') savedSecrets[field.key] = value;
    } else config[field.key] = value === undefined || value === null ? '' : String(value);
  }
  return { slug: carrier.carrierSlug, name: carrier.name, senderAddressId: carrier.senderAddressId, config, savedSecrets };
}

/** The config as the carrier's fields want it; empty optional fields are left out (the carrier's default). */
function configOf(draft: CarrierDraft, fields: CarrierField[]): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const field of fields) {
    const value = draft.config[field.key];
    if (field.type === 'boolean') {
      out[field.key] = value === true;
      continue;
    }
    const textValue = typeof value === 'string' ? value.trim() : '';
    if (field.type === 'password') {
      const saved = draft.savedSecrets[field.key];
      // Left empty: the masked value goes back, and the server keeps the stored secret.
      if (textValue !== '') out[field.key] = typeof value === 'string' ? value : '';
      else if (saved) out[field.key] = saved;
    } else if (textValue === '') continue;
    else if (field.type === 'number') {
      const number = Number(textValue.replace(',', '.'));
      if (!Number.isFinite(number)) throw invalid(`config.${field.key}`, 'Enter a number');
      out[field.key] = number;
    } else out[field.key] = textValue;
  }
  return out;
}

export function CarriersScreen() {
  const orgId = useOrgId();
  const canWrite = useCanWrite('carriers');
  const [page, setPage] = useState(1);
  const list = useOperation('carriers.list', { params: { orgId }, query: { page, limit: SETTINGS_PAGE_SIZE } });
  const catalogue = useOperation('availableCarriers.list', { params: { orgId } });
  const addresses = useOperation('senderAddresses.list', { params: { orgId }, query: { limit: 100 } });
  const editor = useEditor<CarrierDraft>();
  const remove = useConfirmTarget<Carrier>();
  const [productsOf, setProductsOf] = useState<Carrier | null>(null);
  const [productsOpen, setProductsOpen] = useState(false);

  const entryBySlug = new Map((catalogue.data ?? []).map((entry) => [entry.slug, entry]));
  const editing = list.data?.data.find((carrier) => carrier.id === editor.key);

  // Without the catalogue the settings fields are unknown, and saving would drop them: wait for it.
  const edit = (carrier: Carrier) => canWrite && catalogue.data && editor.start(carrier.id, () => draftOf(carrier, entryBySlug.get(carrier.carrierSlug)));
  const showProducts = (carrier: Carrier) => {
    setProductsOf(carrier);
    setProductsOpen(true);
  };
  const startNew = () =>
    editor.start('new', () => {
      const only = catalogue.data?.length === 1 ? catalogue.data[0] : undefined;
      const firstAddress = addresses.data?.data.length === 1 ? addresses.data.data[0]?.id : undefined;
      return { slug: only?.slug ?? '', name: only?.name ?? '', senderAddressId: firstAddress ?? '', config: emptyConfig(only), savedSecrets: {} };
    });

  useStartNewFromLink(canWrite && !!catalogue.data && !!addresses.data, startNew);

  const columns: ColumnDef<Carrier>[] = [
    {
      id: 'name',
      header: 'Name',
      cell: ({ row }) => (
        <>
          {row.original.name}
          {inTestMode(row.original, catalogue.data) && <TestBadge />}
        </>
      ),
    },
    { id: 'type', header: 'Type', cell: ({ row }) => entryBySlug.get(row.original.carrierSlug)?.name ?? row.original.carrierSlug },
    {
      id: 'sender',
      header: 'Sender address',
      cell: ({ row }) => `${row.original.senderAddress.name} (${row.original.senderAddress.city}, ${row.original.senderAddress.countryCode})`,
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: ({ row }) => (
        <RowActions>
          <button type="button" onClick={() => showProducts(row.original)} aria-label={`Products of ${row.original.name}`}>
            Products
          </button>
          {canWrite && (
            <>
              <button type="button" onClick={() => edit(row.original)} aria-label={`Edit ${row.original.name}`} disabled={!catalogue.data}>
                Edit
              </button>
              <button type="button" className="danger" onClick={() => remove.ask(row.original)} aria-label={`Delete ${row.original.name}`}>
                Delete
              </button>
            </>
          )}
        </RowActions>
      ),
    },
  ];

  const save = async (draft: CarrierDraft) => {
    const entry = entryBySlug.get(draft.slug);
    if (!entry) throw invalid('carrierSlug', 'Choose the kind of carrier');
    const config = configOf(draft, fieldsOf(entry));
    if (editor.key === 'new') {
      await client.call('carriers.create', {
        params: { orgId },
        body: { name: draft.name.trim(), carrierSlug: draft.slug, senderAddressId: draft.senderAddressId, config },
      });
    } else {
      await client.call('carriers.update', {
        params: { orgId, carrierId: editor.key ?? '' },
        body: { name: draft.name.trim(), senderAddressId: draft.senderAddressId, config },
      });
    }
    editor.finish();
    list.reload();
  };

  return (
    <div className="settings-screen">
      <PageHeader title="Carriers">
        {canWrite && (
          <button type="button" className="primary" onClick={startNew}>
            New carrier
          </button>
        )}
      </PageHeader>
      <p className="lead">The carriers this organization books with, each with its settings and the address it collects from.</p>
      {!canWrite && <ReadOnlyNote what="carriers" />}
      <SettingsTable
        label="Carriers"
        columns={columns}
        list={list}
        page={page}
        onPageChange={setPage}
        onOpen={canWrite ? edit : showProducts}
        empty="No carriers yet."
      />

      <Dialog title={editor.key === 'new' ? 'New carrier' : `Edit ${editing?.name ?? 'carrier'}`} open={editor.open} onClose={editor.close} wide>
        {editor.draft && (
          <EditorForm
            onSubmit={() => save(editor.draft as CarrierDraft)}
            onCancel={editor.close}
            submitLabel={editor.key === 'new' ? 'Create carrier' : 'Save changes'}
          >
            {(errors) => (
              <>
                <ErrorNotice error={catalogue.error ?? addresses.error} title="The carrier types or sender addresses could not be loaded" />
                <CarrierFields
                  orgId={orgId}
                  carrierId={editor.key === 'new' ? null : (editor.key ?? null)}
                  draft={editor.draft as CarrierDraft}
                  onChange={editor.setDraft}
                  errors={errors}
                  creating={editor.key === 'new'}
                  catalogue={catalogue.data ?? []}
                  addresses={addresses.data?.data ?? []}
                />
              </>
            )}
          </EditorForm>
        )}
      </Dialog>

      <Dialog title={`Products of ${productsOf?.name ?? 'the carrier'}`} open={productsOpen} onClose={() => setProductsOpen(false)} wide>
        {productsOf && <CarrierProducts carrier={productsOf} entry={entryBySlug.get(productsOf.carrierSlug)} canWrite={canWrite} />}
      </Dialog>

      <DeleteConfirmDialog
        confirm={remove}
        noun="carrier"
        consequence="Shipping rules that book with it must be changed or deleted first. Shipments already booked keep their carrier and labels."
        remove={(target) => client.call('carriers.delete', { params: { orgId, carrierId: target.id } })}
        onDeleted={list.reload}
      />
    </div>
  );
}

function emptyConfig(entry: AvailableCarrier | undefined): Record<string, string | boolean> {
  return Object.fromEntries(fieldsOf(entry).map((field) => [field.key, field.type === 'boolean' ? booleanDefault(field) : '']));
}

function CarrierFields({
  orgId,
  carrierId,
  draft,
  onChange,
  errors,
  creating,
  catalogue,
  addresses,
}: {
  orgId: string;
  carrierId: string | null;
  draft: CarrierDraft;
  onChange: (update: (draft: CarrierDraft) => CarrierDraft) => void;
  errors: Record<string, string>;
  creating: boolean;
  catalogue: AvailableCarrier[];
  addresses: { id: string; name: string; city: string; countryCode: string }[];
}) {
  const entry = catalogue.find((item) => item.slug === draft.slug);
  const chooseType = (slug: string) =>
    onChange((current) => {
      const next = catalogue.find((item) => item.slug === slug);
      const previous = catalogue.find((item) => item.slug === current.slug);
      // A name still equal to the old type's name follows the new type; a typed name stays.
      const name = current.name === '' || current.name === previous?.name ? (next?.name ?? '') : current.name;
      return { ...current, slug, name, config: emptyConfig(next), savedSecrets: {} };
    });
  const setConfig = (key: string, value: string | boolean) => onChange((current) => ({ ...current, config: { ...current.config, [key]: value } }));
  const target: CarrierTarget = { orgId, slug: draft.slug, carrierId, carrierName: draft.name || entry?.name || draft.slug };
  const typedConfig = () => configOf(draft, fieldsOf(entry));
  const remote = useRemoteOptions(target, typedConfig);

  return (
    <>
      {creating ? (
        <fieldset className={errors.carrierSlug ? 'carrier-types field-invalid' : 'carrier-types'}>
          <legend>Kind of carrier (required)</legend>
          {catalogue.length === 0 && <p>Loading the carrier catalogue…</p>}
          {catalogue.map((item) => (
            <label key={item.slug} className="carrier-type">
              <input type="radio" name="carrier-type" value={item.slug} checked={draft.slug === item.slug} onChange={() => chooseType(item.slug)} />
              {item.logo && <img src={item.logo} alt="" width={32} height={32} />}
              <span>
                <strong>{item.name}</strong> <small className="hint">{item.group}</small>
                <br />
                <small>{item.description}</small>
              </span>
            </label>
          ))}
          {errors.carrierSlug && <small className="field-error">{errors.carrierSlug}</small>}
        </fieldset>
      ) : (
        <p>
          Kind of carrier: <strong>{entry?.name ?? draft.slug}</strong>
          {hasTestMode(entry) && draft.config.testMode !== false && <TestBadge />}
        </p>
      )}
      {entry && (
        <>
          <div className="form-grid">
            <Field label="Name (required)" error={errors.name} hint="How the carrier is shown in lists and rules">
              <input value={draft.name} onChange={(event) => onChange((current) => ({ ...current, name: event.target.value }))} autoFocus={!creating} />
            </Field>
            <Field label="Sender address (required)" error={errors.senderAddressId} hint="Where this carrier collects from">
              <select value={draft.senderAddressId} onChange={(event) => onChange((current) => ({ ...current, senderAddressId: event.target.value }))}>
                <option value="">Choose a sender address</option>
                {addresses.map((address) => (
                  <option key={address.id} value={address.id}>
                    {address.name} ({address.city}, {address.countryCode})
                  </option>
                ))}
              </select>
            </Field>
          </div>
          <EmptyChoice of="senderAddress" options={addresses} />
          {fieldsOf(entry).length > 0 && (
            <fieldset>
              <legend>{entry.name} settings</legend>
              {entry.learnMoreUrl && (
                <p className="hint">
                  <a href={entry.learnMoreUrl} target="_blank" rel="noreferrer">
                    About {entry.name} (opens outside Shipdesk)
                  </a>
                </p>
              )}
              <div className="form-grid">
                {fieldsOf(entry).map((field) => (
                  <ConfigField
                    key={field.key}
                    field={field}
                    value={draft.config[field.key] ?? (field.type === 'boolean' ? false : '')}
                    saved={draft.savedSecrets[field.key]}
                    error={errors[`config.${field.key}`]}
                    onChange={(value) => setConfig(field.key, value)}
                    remote={field.type === 'select' && field.options.length === 0 ? (remote.byField[field.key] ?? null) : undefined}
                    onLoadOptions={() => void remote.load(field.key)}
                  />
                ))}
              </div>
              <ConnectionTest key={draft.slug} target={target} configOf={typedConfig} />
            </fieldset>
          )}
        </>
      )}
    </>
  );
}

/** One field of a carrier's settings, drawn from its catalogue description. */
function ConfigField({
  field,
  value,
  saved,
  error,
  onChange,
  remote,
  onLoadOptions,
}: {
  field: CarrierField;
  value: string | boolean;
  saved: string | undefined;
  error: string | undefined;
  onChange: (value: string | boolean) => void;
  /** A select whose choices only the carrier knows: what was read so far (null: nothing yet); undefined for the others. */
  remote?: RemoteOptions | null;
  onLoadOptions: () => void;
}) {
  const label = field.required ? `${field.name} (required)` : field.name;
  const textValue = typeof value === 'string' ? value : '';
  switch (field.type) {
    case 'boolean':
      return (
        <div className={error ? 'field field-invalid' : 'field'}>
          <CheckboxField label={label} checked={value === true} onChange={onChange} hint={field.description} />
          {error && <small className="field-error">{error}</small>}
        </div>
      );
    case 'select':
      if (remote !== undefined)
        return <RemoteSelectField field={field} label={label} value={textValue} error={error} remote={remote} onChange={onChange} onLoad={onLoadOptions} />;
      return (
        <Field label={label} error={error} hint={field.description}>
          <select value={textValue} onChange={(event) => onChange(event.target.value)}>
            <option value="">{field.required ? 'Choose…' : 'Carrier default'}</option>
            {field.options.map((option) => (
              <option key={option.key} value={option.value}>
                {option.name}
              </option>
            ))}
          </select>
        </Field>
      );
    case 'password':
      return (
        <Field
          label={label}
          error={error}
          hint={saved ? `${field.description} Saved as ${saved}; leave empty to keep it, or type a new one.` : field.description}
        >
          <input type="password" value={textValue} onChange={(event) => onChange(event.target.value)} autoComplete="new-password" placeholder={saved ?? ''} />
        </Field>
      );
    case 'number':
      return (
        <Field label={label} error={error} hint={field.description}>
          <input inputMode="decimal" value={textValue} onChange={(event) => onChange(event.target.value)} />
        </Field>
      );
    case 'string':
      return (
        <Field label={label} error={error} hint={field.description}>
          <input value={textValue} onChange={(event) => onChange(event.target.value)} />
        </Field>
      );
  }
}

/**
 * A select whose choices are read from the carrier with the settings typed so far (Karrio lists the
 * connections of the server at the typed address with the typed API key). The saved value stays a
 * choice until the list is read, so editing a carrier does not lose it.
 */
function RemoteSelectField({
  field,
  label,
  value,
  error,
  remote,
  onChange,
  onLoad,
}: {
  field: CarrierField;
  label: string;
  value: string;
  error: string | undefined;
  remote: RemoteOptions | null;
  onChange: (value: string) => void;
  onLoad: () => void;
}) {
  const options = remote?.options ?? [];
  const keepSaved = value !== '' && !options.some((option) => option.value === value);
  return (
    <div className="remote-select">
      <Field
        label={label}
        error={error}
        hint={`${field.description} ${remote ? '' : 'Fill in the other settings, then load the choices from the carrier.'}`.trim()}
      >
        <select value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">{options.length ? 'Choose…' : 'Load the choices first'}</option>
          {keepSaved && <option value={value}>{value} (saved)</option>}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.name}
            </option>
          ))}
        </select>
      </Field>
      <button type="button" onClick={onLoad} disabled={remote?.loading}>
        {remote?.loading ? 'Loading…' : `Load ${field.name.toLowerCase()} choices from the carrier`}
      </button>
      {remote && !remote.loading && !remote.error && options.length === 0 && <p className="hint">The carrier listed no choices for these settings.</p>}
      <ErrorNotice error={remote?.error} title={`The ${field.name.toLowerCase()} choices could not be read`} />
    </div>
  );
}
