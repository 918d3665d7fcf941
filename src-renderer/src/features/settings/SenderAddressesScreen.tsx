import { useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import type { SenderAddress } from '../../../../src-shared/schemas/senderAddress';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/forms';
import { CountryPicker } from '../../components/CountryPicker';
import { client } from '../../lib/api';
import { useOperation } from '../../lib/useOperation';
import { useOrgId } from '../../lib/session';
import {
  EditorForm,
  PageHeader,
  ReadOnlyNote,
  SETTINGS_PAGE_SIZE,
  countryName,
  useCanWrite,
  useConfirmTarget,
  useEditor,
  useStartNewFromLink,
  editDeleteColumn,
  SettingsTable,
  DeleteConfirmDialog,
} from './shared';

interface AddressDraft {
  name: string;
  attContact: string;
  address1: string;
  address2: string;
  zipcode: string;
  city: string;
  state: string;
  countryCode: string;
  phone: string;
  email: string;
}

const blank: AddressDraft = { name: '', attContact: '', address1: '', address2: '', zipcode: '', city: '', state: '', countryCode: '', phone: '', email: '' };

function draftOf(address: SenderAddress): AddressDraft {
  return { ...address, address2: address.address2 ?? '', email: address.email ?? '' };
}

/** The body for create and PUT: every field, the optional ones left out when empty. */
function bodyOf(draft: AddressDraft) {
  const trimmed = Object.fromEntries(Object.entries(draft).map(([key, value]) => [key, value.trim()])) as unknown as AddressDraft;
  return {
    name: trimmed.name,
    attContact: trimmed.attContact,
    address1: trimmed.address1,
    address2: trimmed.address2 === '' ? null : trimmed.address2,
    zipcode: trimmed.zipcode,
    city: trimmed.city,
    state: trimmed.state,
    countryCode: trimmed.countryCode,
    phone: trimmed.phone,
    ...(trimmed.email === '' ? {} : { email: trimmed.email }),
  };
}

export function oneLineAddress(address: Pick<SenderAddress, 'address1' | 'zipcode' | 'city' | 'countryCode'>): string {
  return `${address.address1}, ${address.zipcode} ${address.city}, ${address.countryCode}`;
}

export function SenderAddressesScreen() {
  const orgId = useOrgId();
  const canWrite = useCanWrite('sender_addresses');
  const [page, setPage] = useState(1);
  const list = useOperation('senderAddresses.list', { params: { orgId }, query: { page, limit: SETTINGS_PAGE_SIZE } });
  const editor = useEditor<AddressDraft>();
  const remove = useConfirmTarget<SenderAddress>();
  const editing = list.data?.data.find((address) => address.id === editor.key);

  useStartNewFromLink(canWrite, () => editor.start('new', () => ({ ...blank })));
  const edit = (address: SenderAddress) => canWrite && editor.start(address.id, () => draftOf(address));

  const columns: ColumnDef<SenderAddress>[] = [
    { id: 'name', header: 'Name', cell: ({ row }) => row.original.name },
    { id: 'contact', header: 'Contact', cell: ({ row }) => row.original.attContact || '—' },
    {
      id: 'address',
      header: 'Address',
      cell: ({ row }) => `${row.original.address1}${row.original.address2 ? `, ${row.original.address2}` : ''}, ${row.original.zipcode} ${row.original.city}`,
    },
    { id: 'country', header: 'Country', cell: ({ row }) => countryName(row.original.countryCode) },
    { id: 'phone', header: 'Phone', cell: ({ row }) => row.original.phone || '—' },
    { id: 'email', header: 'Email', cell: ({ row }) => row.original.email || '—' },
  ];
  if (canWrite) columns.push(editDeleteColumn(edit, remove.ask));

  const save = async (draft: AddressDraft) => {
    const body = bodyOf(draft);
    if (editor.key === 'new') await client.call('senderAddresses.create', { params: { orgId }, body });
    else await client.call('senderAddresses.update', { params: { orgId, addressId: editor.key ?? '' }, body });
    editor.finish();
    list.reload();
  };

  return (
    <div className="settings-screen">
      <PageHeader title="Sender addresses">
        {canWrite && (
          <button type="button" className="primary" onClick={() => editor.start('new', () => ({ ...blank }))}>
            New sender address
          </button>
        )}
      </PageHeader>
      <p className="lead">The addresses parcels are sent from. Each carrier and shipping rule names one.</p>
      {!canWrite && <ReadOnlyNote what="sender addresses" />}
      <SettingsTable
        label="Sender addresses"
        columns={columns}
        list={list}
        page={page}
        onPageChange={setPage}
        onOpen={canWrite ? edit : undefined}
        empty="No sender addresses yet. Add the warehouse address first: carriers and rules need one."
      />

      <Dialog title={editor.key === 'new' ? 'New sender address' : `Edit ${editing?.name ?? 'sender address'}`} open={editor.open} onClose={editor.close} wide>
        {editor.draft && (
          <EditorForm
            onSubmit={() => save(editor.draft as AddressDraft)}
            onCancel={editor.close}
            submitLabel={editor.key === 'new' ? 'Create sender address' : 'Save changes'}
          >
            {(errors) => <AddressFields draft={editor.draft as AddressDraft} onChange={(update) => editor.setDraft(update)} errors={errors} />}
          </EditorForm>
        )}
      </Dialog>

      <DeleteConfirmDialog
        confirm={remove}
        noun="sender address"
        consequence="Carriers or rules that use it must be moved to another address first."
        remove={(target) => client.call('senderAddresses.delete', { params: { orgId, addressId: target.id } })}
        onDeleted={list.reload}
      />
    </div>
  );
}

function AddressFields({
  draft,
  onChange,
  errors,
}: {
  draft: AddressDraft;
  onChange: (update: (draft: AddressDraft) => AddressDraft) => void;
  errors: Record<string, string>;
}) {
  const text = (key: keyof AddressDraft) => ({
    value: draft[key],
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      onChange((current) => ({ ...current, [key]: value }));
    },
  });
  return (
    <div className="form-grid">
      <Field label="Name (required)" error={errors.name} hint="A label for the address, e.g. Main warehouse">
        <input {...text('name')} autoFocus />
      </Field>
      <Field label="Contact person" error={errors.attContact}>
        <input {...text('attContact')} autoComplete="name" />
      </Field>
      <Field label="Address line 1 (required)" error={errors.address1}>
        <input {...text('address1')} autoComplete="address-line1" />
      </Field>
      <Field label="Address line 2" error={errors.address2}>
        <input {...text('address2')} autoComplete="address-line2" />
      </Field>
      <Field label="Postal code (required)" error={errors.zipcode}>
        <input {...text('zipcode')} autoComplete="postal-code" />
      </Field>
      <Field label="City (required)" error={errors.city}>
        <input {...text('city')} autoComplete="address-level2" />
      </Field>
      <Field label="State or region" error={errors.state}>
        <input {...text('state')} autoComplete="address-level1" />
      </Field>
      <Field label="Country (required)" error={errors.countryCode}>
        <CountryPicker value={draft.countryCode} onChange={(countryCode) => onChange((current) => ({ ...current, countryCode }))} />
      </Field>
      <Field label="Phone" error={errors.phone}>
        <input {...text('phone')} type="tel" autoComplete="tel" />
      </Field>
      <Field label="Email" error={errors.email}>
        <input {...text('email')} type="email" autoComplete="email" />
      </Field>
    </div>
  );
}
