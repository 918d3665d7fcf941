import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { incoterms, shipmentTypes, type Shipment, type ShipmentType } from '../../../../../src-shared/schemas/shipment';
import { client } from '../../../lib/api';
import { useOperation } from '../../../lib/useOperation';
import { useOrgId } from '../../../lib/session';
import { humanize } from '../../../lib/format';
import { Link, navigate } from '../../../app/router';
import { ErrorNotice, fieldLabel, fieldProblem } from '../../../components/ErrorNotice';
import { Field, fieldErrors } from '../../../components/forms';
import { holdsUnchosenCountry } from '../../../components/CountryPicker';
import { ServicePointPicker, useServicePointMode } from '../../../components/ServicePointPicker';
import { CarrierFields } from './CarrierFields';
import { PartyFields } from './PartyFields';
import { ParcelFields } from './ParcelFields';
import { TextInput, focusField, focusFirstInvalid } from './inputs';
import {
  choosePoint,
  createBody,
  emptyForm,
  emptyParcel,
  emptyParty,
  formOf,
  receiverAddress,
  updateBody,
  type FieldMessages,
  type Incoterm,
  type PartyType,
  type ShipmentForm,
} from './model';
import { useShipmentDrafts } from './drafts';
import { canEdit } from '../lifecycle';
import { ReadOnlyNote, useCanWrite } from '../../../lib/permissions';

/** `/shipments/new` */
export function NewShipmentScreen() {
  return <ShipmentEditor key="new" draftKey="new" baseline={emptyForm()} />;
}

/** `/shipments/:shipmentId/edit` */
export function EditShipmentScreen({ shipmentId }: { shipmentId: string }) {
  const orgId = useOrgId();
  const shipment = useOperation('shipments.get', { params: { orgId, shipmentId } });
  if (shipment.error) return <ErrorNotice error={shipment.error} title="The shipment could not be loaded" />;
  if (!shipment.data) return <p className="loading">Loading the shipment…</p>;
  return <ShipmentEditor key={shipmentId} draftKey={`edit:${shipmentId}`} baseline={formOf(shipment.data)} shipment={shipment.data} />;
}

/** The party "Add party" adds: the receiver a shipment needs first, then a sender, then billing. */
const nextPartyType = (form: ShipmentForm): PartyType =>
  (['receiver', 'sender'] as const).find((type) => !form.parties.some((party) => party.type === type)) ?? 'billing';

function ShipmentEditor({ draftKey, baseline, shipment }: { draftKey: string; baseline: ShipmentForm; shipment?: Shipment }) {
  const orgId = useOrgId();
  const mode = shipment ? 'edit' : 'create';
  const drafts = useShipmentDrafts();
  const restored = drafts.drafts[draftKey];
  const [form, setFormState] = useState<ShipmentForm>(restored ?? baseline);
  const [wasRestored] = useState(Boolean(restored));
  const [error, setError] = useState<unknown>(null);
  const [localErrors, setLocalErrors] = useState<FieldMessages>({});
  const [busy, setBusy] = useState(false);
  const canWrite = useCanWrite('shipments');
  const formRef = useRef<HTMLFormElement>(null);
  const errors = { ...fieldErrors(error), ...localErrors };
  // Server messages whose path has no field on this form are listed, so none is silently lost.
  const [unplaced, setUnplaced] = useState<[string, string][]>([]);
  useEffect(() => {
    const shown = formRef.current;
    const messages = Object.entries(fieldErrors(error));
    setUnplaced(
      messages.filter(([path]) => !shown?.querySelector(`[name="${CSS.escape(path)}"]`) && !/^(parties|parcels|parcels\.\d+\.orderLines)$/.test(path)),
    );
  }, [error]);
  // A save that failed puts the focus on the first field marked, once the marks are rendered (a
  // frame after the answer can come before them), else on the message.
  const [failedSaves, setFailedSaves] = useState(0);
  useEffect(() => {
    if (failedSaves > 0) focusFirstInvalid(formRef.current);
  }, [failedSaves]);

  const setForm = (next: ShipmentForm) => {
    setFormState(next);
    drafts.keep(draftKey, next);
  };
  const patch = (part: Partial<ShipmentForm>) => setForm({ ...form, ...part });
  const pointMode = useServicePointMode(form.carrierId, form.productId);

  const save = async () => {
    if (busy || !canWrite || (shipment && !canEdit(shipment.status))) return;
    // A country typed but not chosen is refused at its field, before anything else is checked.
    if (holdsUnchosenCountry(formRef.current)) return;
    const built = mode === 'create' ? createBody(form) : updateBody(form, baseline);
    setLocalErrors(built.errors);
    if (Object.keys(built.errors).length > 0) {
      setError(null);
      setFailedSaves((count) => count + 1);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const saved = shipment
        ? await client.call('shipments.update', { params: { orgId, shipmentId: shipment.id }, body: built.body as never })
        : await client.call('shipments.create', { params: { orgId }, body: built.body as never });
      drafts.drop(draftKey);
      navigate(`/shipments/${encodeURIComponent(saved.id)}`);
    } catch (caught) {
      // The form keeps everything as typed; the messages appear at their fields.
      setError(caught);
      setFailedSaves((count) => count + 1);
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save();
  };

  // A scanner ends each scan with Enter: in a field that moves on to the next one instead of saving
  // half a shipment. Ctrl+Enter saves from anywhere in the form.
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    const target = event.target as HTMLElement;
    if (event.key !== 'Enter') return;
    if (event.ctrlKey || event.metaKey) {
      event.preventDefault();
      void save();
      return;
    }
    if (target instanceof HTMLInputElement && target.type !== 'checkbox' && target.type !== 'submit') {
      event.preventDefault();
      const fields = [...(formRef.current?.querySelectorAll<HTMLElement>('input, select, textarea') ?? [])].filter((field) => !field.hasAttribute('disabled'));
      fields[fields.indexOf(target) + 1]?.focus();
    }
  };

  const discard = () => {
    drafts.drop(draftKey);
    setFormState(baseline);
    setError(null);
    setLocalErrors({});
  };

  const setType = (type: ShipmentType) => (mode === 'create' ? patch({ type, productId: '', services: [] }) : patch({ type }));
  const title = shipment ? `Edit shipment ${shipment.reference}` : 'New shipment';
  const partiesError = errors.parties;
  const parcelsError = errors.parcels;
  // A shipment past editing, or a role that may not change shipments, gets the form read-only: it
  // stays as a record, not as an invitation.
  const pastEditing = shipment !== undefined && !canEdit(shipment.status);
  const locked = pastEditing || !canWrite;

  return (
    <form ref={formRef} className="shipment-form" onSubmit={submit} onKeyDown={onKeyDown} aria-labelledby="shipment-form-title" noValidate>
      <header className="page-header">
        <h1 id="shipment-form-title">{title}</h1>
        <div className="actions">
          <Link to={shipment ? `/shipments/${encodeURIComponent(shipment.id)}` : '/shipments'}>Back without saving</Link>
        </div>
      </header>
      {!canWrite && <ReadOnlyNote what="shipments" />}
      {canWrite && pastEditing && (
        <div className="error-notice" role="alert">
          <strong>This shipment is {humanize(shipment.status).toLowerCase()} and can no longer be changed.</strong> Only draft, pending, on hold and failed
          shipments can be edited.
        </div>
      )}
      {wasRestored && (
        <div className="notice" role="status">
          Your unsaved changes were kept.{' '}
          <button type="button" onClick={discard}>
            Discard them
          </button>
        </div>
      )}
      <fieldset className="bare" disabled={locked}>
        <fieldset>
          <legend>Shipment</legend>
          <div className="form-grid">
            <Field label="Type" error={errors.type}>
              <select name="type" value={form.type} onChange={(event) => setType(event.target.value as ShipmentType)}>
                {shipmentTypes.map((type) => (
                  <option key={type} value={type}>
                    {type === 'inbound' ? 'Inbound (return)' : 'Outbound'}
                  </option>
                ))}
              </select>
            </Field>
            <TextInput
              label="Reference"
              path="reference"
              value={form.reference}
              errors={errors}
              onChange={(reference) => patch({ reference })}
              hint={mode === 'create' ? 'Optional: left empty, Shipdesk numbers it' : undefined}
              autoFocus
            />
            <Field label="Term of trade" error={errors.termOfTrade}>
              <select name="termOfTrade" value={form.termOfTrade} onChange={(event) => patch({ termOfTrade: event.target.value as Incoterm })}>
                {incoterms.map((term) => (
                  <option key={term} value={term}>
                    {term}
                  </option>
                ))}
              </select>
            </Field>
            {/* A product without service points takes an id as typed (one the carrier gave elsewhere); the others get the picker below. */}
            {pointMode === 'none' && (
              <TextInput
                label="Service point (optional)"
                path="servicePointId"
                value={form.servicePointId}
                errors={errors}
                onChange={(servicePointId) => patch({ servicePointId })}
              />
            )}
          </div>
        </fieldset>

        <CarrierFields orgId={orgId} form={form} mode={mode} errors={errors} onChange={patch} />
        <ServicePointPicker
          carrierId={form.carrierId}
          productId={form.productId}
          address={receiverAddress(form)}
          value={form.servicePointId || null}
          onChange={(point) => patch(choosePoint(form, point))}
        />

        <h2>Parties</h2>
        {partiesError && <p className="field-error">{partiesError}</p>}
        {form.parties.map((party, index) => (
          <PartyFields
            key={index}
            party={party}
            index={index}
            errors={errors}
            onChange={(next) => patch({ parties: form.parties.map((old, i) => (i === index ? next : old)) })}
            onRemove={form.parties.length > 1 ? () => patch({ parties: form.parties.filter((_, i) => i !== index) }) : undefined}
          />
        ))}
        <div className="form-actions start">
          <button
            type="button"
            onClick={() => {
              patch({ parties: [...form.parties, emptyParty(nextPartyType(form))] });
              focusField(formRef.current, `parties.${form.parties.length}.type`);
            }}
          >
            Add party
          </button>
          <span className="muted">Without a sender party, it is made from the sender address.</span>
        </div>

        <h2>Parcels</h2>
        {parcelsError && <p className="field-error">{parcelsError}</p>}
        {form.parcels.map((parcel, index) => (
          <ParcelFields
            key={index}
            parcel={parcel}
            index={index}
            errors={errors}
            onChange={(next) => patch({ parcels: form.parcels.map((old, i) => (i === index ? next : old)) })}
            onRemove={form.parcels.length > 1 ? () => patch({ parcels: form.parcels.filter((_, i) => i !== index) }) : undefined}
            onLineAdded={(path) => focusField(formRef.current, path)}
          />
        ))}
        <div className="form-actions start">
          <button
            type="button"
            onClick={() => {
              patch({ parcels: [...form.parcels, emptyParcel()] });
              focusField(formRef.current, `parcels.${form.parcels.length}.weight`);
            }}
          >
            Add parcel
          </button>
        </div>

        <fieldset>
          <legend>Pickup (optional)</legend>
          <div className="form-grid">
            <TextInput
              label="Pickup date"
              path="pickupDetails.date"
              type="date"
              value={form.pickup.date}
              errors={errors}
              onChange={(date) => patch({ pickup: { ...form.pickup, date } })}
            />
            <TextInput
              label="From"
              path="pickupDetails.from"
              type="time"
              value={form.pickup.from}
              errors={errors}
              onChange={(from) => patch({ pickup: { ...form.pickup, from } })}
            />
            <TextInput
              label="To"
              path="pickupDetails.to"
              type="time"
              value={form.pickup.to}
              errors={errors}
              onChange={(to) => patch({ pickup: { ...form.pickup, to } })}
            />
            <TextInput
              label="Instruction"
              path="pickupDetails.instruction"
              value={form.pickup.instruction}
              errors={errors}
              onChange={(instruction) => patch({ pickup: { ...form.pickup, instruction } })}
            />
          </div>
        </fieldset>
      </fieldset>

      {/* The parties' types name "parties.1" as the Receiver it is on this form. */}
      <ErrorNotice error={error} fields={{ partyTypes: form.parties.map((party) => party.type) }} />
      {unplaced.length > 0 && (
        <ul className="error-notice" aria-label="Other problems">
          {unplaced.map(([path, message]) => (
            <li key={path}>{fieldProblem(fieldLabel(path, { partyTypes: form.parties.map((party) => party.type) }), message)}</li>
          ))}
        </ul>
      )}
      {Object.keys(localErrors).length > 0 && (
        <div role="alert" className="error-notice">
          <strong>Some fields need attention.</strong> They are marked in red.
        </div>
      )}
      <div className="form-actions sticky-actions">
        <span className="muted">Ctrl+Enter saves · Enter moves to the next field</span>
        <button type="submit" className="primary" disabled={busy || locked} aria-keyshortcuts="Control+Enter">
          {busy ? 'Saving…' : shipment ? 'Save changes' : `Create ${humanize(form.type).toLowerCase()} shipment`}
        </button>
      </div>
    </form>
  );
}
