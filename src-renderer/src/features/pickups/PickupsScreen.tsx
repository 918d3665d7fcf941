import { useId, useMemo, useState, type FormEvent } from 'react';
import type { Carrier } from '../../../../src-shared/schemas/carrier';
import type { SenderAddress } from '../../../../src-shared/schemas/senderAddress';
import { MAX_PICKUP_INSTRUCTION, WORKING_WEEK, type DailyPickup, type Pickup } from '../../../../src-shared/schemas/pickup';
import { Link } from '../../app/router';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Field, FormActions } from '../../components/forms';
import { StatusBadge } from '../../components/StatusBadge';
import { client } from '../../lib/api';
import { ReadOnlyNote, useCanWrite } from '../../lib/permissions';
import { useOrgId } from '../../lib/session';
import { useOperation } from '../../lib/useOperation';
import { plainFieldErrors } from '../settings/shared';

/**
 * Pickups (issue 21), reached from Shipments: when the carriers come to collect. Book one for a day,
 * cancel it, and set a daily pickup per carrier that books itself each chosen weekday.
 */

const two = (n: number) => String(n).padStart(2, '0');
const dayOf = (at: Date) => `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}`;
/** Today on this computer's calendar, as the server reads a pickup's date. */
const today = () => dayOf(new Date());
const yesterday = () => {
  const now = new Date();
  return dayOf(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1));
};
const DEFAULT_WINDOW = { from: '15:00', to: '17:00' };
/** The first day the default window can still be booked: today until it ends, then tomorrow. */
function firstBookableDay(): string {
  const now = new Date();
  if (`${two(now.getHours())}:${two(now.getMinutes())}` < DEFAULT_WINDOW.to) return dayOf(now);
  return dayOf(new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1));
}
const dayName = new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric' });
const shownDay = (date: string) => dayName.format(new Date(`${date}T12:00:00`));
const weekdayNames = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const weekdaysText = (days: readonly number[]) =>
  days.join() === WORKING_WEEK.join() ? 'Monday to Friday' : days.map((day) => weekdayNames[day - 1]?.slice(0, 3) ?? String(day)).join(', ');

const addressText = (address: SenderAddress | undefined) => (address ? `${address.name}, ${address.address1}, ${address.city}` : 'Unknown address');

/** The carrier's own sender address, or the only one there is. */
function defaultAddress(carrier: Carrier | undefined, addresses: readonly SenderAddress[]): string {
  if (carrier?.senderAddressId && addresses.some((address) => address.id === carrier.senderAddressId)) return carrier.senderAddressId;
  return addresses.length === 1 ? (addresses[0]?.id ?? '') : '';
}

export function PickupsScreen() {
  const orgId = useOrgId();
  const canWrite = useCanWrite('shipments');
  const day = today();
  const upcoming = useOperation('pickups.list', { params: { orgId }, query: { dateFrom: day, limit: 100 } });
  const past = useOperation('pickups.list', { params: { orgId }, query: { dateTo: yesterday(), limit: 20 } });
  const daily = useOperation('dailyPickups.list', { params: { orgId }, query: { limit: 100 } });
  const carriers = useOperation('carriers.list', { params: { orgId }, query: { limit: 100 } });
  const addresses = useOperation('senderAddresses.list', { params: { orgId }, query: { limit: 100 } });
  const carrierList = carriers.data?.data ?? [];
  const addressList = addresses.data?.data ?? [];
  const carrierNames = useMemo(() => new Map(carrierList.map((carrier) => [carrier.id, carrier.name])), [carrierList]);
  const addressById = useMemo(() => new Map(addressList.map((address) => [address.id, address])), [addressList]);
  const [notice, setNotice] = useState<string | null>(null);
  const reload = () => {
    upcoming.reload();
    past.reload();
    daily.reload();
  };

  const pastRows = past.data?.data ?? [];
  const context = { carrierNames, addressById };

  return (
    <section aria-labelledby="pickups-title" className="pickups-screen">
      <header className="page-header">
        <h1 id="pickups-title">Pickups</h1>
        <div className="actions">
          <Link to="/shipments">Back to shipments</Link>
        </div>
      </header>
      <p className="lead">When the carriers come to collect. Book a pickup for a day, or set a daily pickup that books itself on the days you choose.</p>
      {!canWrite && <ReadOnlyNote what="pickups" />}
      {notice && (
        <p role="status" className="call-result ok">
          {notice}
        </p>
      )}
      {canWrite && (
        <BookPickupForm
          orgId={orgId}
          carriers={carrierList}
          addresses={addressList}
          onBooked={(pickup) => {
            setNotice(
              `Pickup booked with ${carrierNames.get(pickup.carrierId) ?? 'the carrier'} for ${shownDay(pickup.date)}, confirmation ${pickup.confirmationNumber ?? '—'}.`,
            );
            reload();
          }}
          onFailed={reload}
        />
      )}
      <ErrorNotice error={upcoming.error ?? past.error} title="The pickups could not be loaded" />
      <PickupTable
        title="Upcoming pickups"
        rows={upcoming.data?.data ?? []}
        empty="No pickups booked from today on."
        context={context}
        orgId={orgId}
        canCancel={canWrite}
        onCancelled={(pickup) => {
          setNotice(pickup.notice ?? `Pickup on ${shownDay(pickup.date)} cancelled.`);
          reload();
        }}
      />
      <PickupTable title="Past pickups" rows={pastRows} empty="No earlier pickups." context={context} orgId={orgId} canCancel={false} onCancelled={reload} />
      <DailyPickups
        orgId={orgId}
        rows={daily.data?.data ?? []}
        error={daily.error}
        carriers={carrierList}
        addresses={addressList}
        canWrite={canWrite}
        onChanged={reload}
      />
    </section>
  );
}

interface TableContext {
  carrierNames: Map<string, string>;
  addressById: Map<string, SenderAddress>;
}

function PickupTable(props: {
  title: string;
  rows: Pickup[];
  empty: string;
  context: TableContext;
  orgId: string;
  canCancel: boolean;
  onCancelled: (pickup: Pickup) => void;
}) {
  const headingId = useId();
  const [asking, setAsking] = useState<Pickup | null>(null);
  const [error, setError] = useState<unknown>(null);
  const cancel = async () => {
    if (!asking) return;
    try {
      const cancelled = await client.call('pickups.cancel', { params: { orgId: props.orgId, pickupId: asking.id } });
      setAsking(null);
      setError(null);
      props.onCancelled(cancelled);
    } catch (caught) {
      setAsking(null);
      setError(caught);
    }
  };
  const carrierOf = (pickup: Pickup) => props.context.carrierNames.get(pickup.carrierId) ?? 'Carrier';
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{props.title}</h2>
      <ErrorNotice error={error} title="The pickup was not cancelled" />
      {props.rows.length === 0 ? (
        <p className="muted">{props.empty}</p>
      ) : (
        <div className="table-scroll">
          <table className="plain" aria-labelledby={headingId}>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Window</th>
                <th scope="col">Carrier</th>
                <th scope="col">Address</th>
                <th scope="col">Parcels</th>
                <th scope="col">Weight</th>
                <th scope="col">Confirmation</th>
                <th scope="col">Status</th>
                {props.canCancel && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {props.rows.map((pickup) => (
                <tr key={pickup.id}>
                  <td>{shownDay(pickup.date)}</td>
                  <td>
                    {pickup.from}–{pickup.to}
                  </td>
                  <td>
                    {carrierOf(pickup)}
                    {pickup.dailyPickupId ? <span className="muted"> (daily)</span> : null}
                  </td>
                  <td>{addressText(props.context.addressById.get(pickup.senderAddressId))}</td>
                  <td>{pickup.parcelCount ?? '—'}</td>
                  <td>{pickup.weight !== null ? `${pickup.weight} kg` : '—'}</td>
                  <td className="number">{pickup.confirmationNumber ?? '—'}</td>
                  <td>
                    <StatusBadge status={pickup.status} />
                    {pickup.error && <div className="field-error">{pickup.error}</div>}
                    {pickup.notice && <div className="field-warning">{pickup.notice}</div>}
                  </td>
                  {props.canCancel && (
                    <td>
                      {(pickup.status === 'booked' || pickup.status === 'failed') && (
                        <button
                          type="button"
                          onClick={() => setAsking(pickup)}
                          aria-label={`Cancel the ${carrierOf(pickup)} pickup on ${shownDay(pickup.date)}`}
                        >
                          Cancel
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={asking !== null}
        title="Cancel pickup"
        message={asking ? `Cancel the ${carrierOf(asking)} pickup on ${shownDay(asking.date)}, ${asking.from}–${asking.to}?` : ''}
        confirmLabel="Cancel pickup"
        onConfirm={cancel}
        onCancel={() => setAsking(null)}
      />
    </section>
  );
}

interface PickupDraft {
  carrierId: string;
  senderAddressId: string;
  date: string;
  from: string;
  to: string;
  parcelCount: string;
  weight: string;
  instruction: string;
}

/** The optional details as the API takes them: left out when empty. */
function details(draft: { parcelCount: string; weight: string; instruction: string }) {
  return {
    ...(draft.parcelCount.trim() ? { parcelCount: Number(draft.parcelCount) } : {}),
    ...(draft.weight.trim() ? { weight: Number(draft.weight) } : {}),
    ...(draft.instruction.trim() ? { instruction: draft.instruction.trim() } : {}),
  };
}

function CarrierAndAddress(props: {
  carriers: readonly Carrier[];
  addresses: readonly SenderAddress[];
  carrierId: string;
  senderAddressId: string;
  errors: Record<string, string>;
  onChange: (change: { carrierId?: string; senderAddressId?: string }) => void;
}) {
  return (
    <>
      <Field label="Carrier" error={props.errors.carrierId}>
        <select
          value={props.carrierId}
          onChange={(event) => {
            const carrier = props.carriers.find((candidate) => candidate.id === event.target.value);
            props.onChange({ carrierId: event.target.value, senderAddressId: defaultAddress(carrier, props.addresses) || props.senderAddressId });
          }}
        >
          <option value="">Choose a carrier</option>
          {props.carriers.map((carrier) => (
            <option key={carrier.id} value={carrier.id}>
              {carrier.name}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Collect from" error={props.errors.senderAddressId}>
        <select value={props.senderAddressId} onChange={(event) => props.onChange({ senderAddressId: event.target.value })}>
          <option value="">Choose a sender address</option>
          {props.addresses.map((address) => (
            <option key={address.id} value={address.id}>
              {addressText(address)}
            </option>
          ))}
        </select>
      </Field>
    </>
  );
}

function BookPickupForm(props: {
  orgId: string;
  carriers: readonly Carrier[];
  addresses: readonly SenderAddress[];
  onBooked: (pickup: Pickup) => void;
  onFailed: () => void;
}) {
  const headingId = useId();
  const [draft, setDraft] = useState<PickupDraft>({
    carrierId: '',
    senderAddressId: '',
    date: firstBookableDay(),
    ...DEFAULT_WINDOW,
    parcelCount: '',
    weight: '',
    instruction: '',
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // The only carrier or address is chosen already.
  const carrierId = draft.carrierId || (props.carriers.length === 1 ? (props.carriers[0]?.id ?? '') : '');
  const senderAddressId =
    draft.senderAddressId ||
    defaultAddress(
      props.carriers.find((carrier) => carrier.id === carrierId),
      props.addresses,
    );
  const errors = plainFieldErrors(error);
  const set = (change: Partial<PickupDraft>) => setDraft((previous) => ({ ...previous, ...change }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const pickup = await client.call('pickups.book', {
        params: { orgId: props.orgId, carrierId },
        body: { date: draft.date, from: draft.from, to: draft.to, senderAddressId, ...details(draft) },
      });
      setError(null);
      set({ parcelCount: '', weight: '', instruction: '' });
      props.onBooked(pickup);
    } catch (caught) {
      setError(caught);
      // A refused booking is kept as a failed pickup: show it in the list.
      props.onFailed();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card" aria-labelledby={headingId} onSubmit={(event) => void submit(event)} noValidate>
      <h2 id={headingId}>Book a pickup</h2>
      <ErrorNotice error={error} title="The pickup was not booked" />
      <div className="form-grid">
        <CarrierAndAddress
          carriers={props.carriers}
          addresses={props.addresses}
          carrierId={carrierId}
          senderAddressId={senderAddressId}
          errors={errors}
          onChange={(change) => set(change)}
        />
        <Field label="Day" error={errors.date}>
          <input type="date" value={draft.date} min={today()} onChange={(event) => set({ date: event.target.value })} required />
        </Field>
        <Field label="Ready from" error={errors.from}>
          <input type="time" value={draft.from} onChange={(event) => set({ from: event.target.value })} required />
        </Field>
        <Field label="Collect by" error={errors.to}>
          <input type="time" value={draft.to} onChange={(event) => set({ to: event.target.value })} required />
        </Field>
        <Field label="Parcels" error={errors.parcelCount} hint="Optional">
          <input type="number" min={1} step={1} inputMode="numeric" value={draft.parcelCount} onChange={(event) => set({ parcelCount: event.target.value })} />
        </Field>
        <Field label="Total weight (kg)" error={errors.weight} hint="Optional">
          <input type="number" min={0} step="any" inputMode="decimal" value={draft.weight} onChange={(event) => set({ weight: event.target.value })} />
        </Field>
        <Field label="Note for the driver" error={errors.instruction} hint={`Optional, at most ${MAX_PICKUP_INSTRUCTION} characters`}>
          <input type="text" maxLength={MAX_PICKUP_INSTRUCTION} value={draft.instruction} onChange={(event) => set({ instruction: event.target.value })} />
        </Field>
      </div>
      <FormActions>
        <button type="submit" className="primary" disabled={busy || !carrierId}>
          {busy ? 'Booking…' : 'Book pickup'}
        </button>
      </FormActions>
    </form>
  );
}

interface DailyDraft {
  carrierId: string;
  senderAddressId: string;
  from: string;
  to: string;
  parcelCount: string;
  weekdays: number[];
}

function DailyPickups(props: {
  orgId: string;
  rows: DailyPickup[];
  error: unknown;
  carriers: readonly Carrier[];
  addresses: readonly SenderAddress[];
  canWrite: boolean;
  onChanged: () => void;
}) {
  const headingId = useId();
  const formHeadingId = useId();
  const [draft, setDraft] = useState<DailyDraft>({
    carrierId: '',
    senderAddressId: '',
    ...DEFAULT_WINDOW,
    parcelCount: '',
    weekdays: [...WORKING_WEEK],
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [removing, setRemoving] = useState<DailyPickup | null>(null);
  const errors = plainFieldErrors(error);
  const carrierNames = new Map(props.carriers.map((carrier) => [carrier.id, carrier.name]));
  const set = (change: Partial<DailyDraft>) => setDraft((previous) => ({ ...previous, ...change }));
  const senderAddressId =
    draft.senderAddressId ||
    defaultAddress(
      props.carriers.find((carrier) => carrier.id === draft.carrierId),
      props.addresses,
    );

  const act = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
      setError(null);
      props.onChanged();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void act(async () => {
      await client.call('dailyPickups.create', {
        params: { orgId: props.orgId },
        body: {
          carrierId: draft.carrierId,
          senderAddressId,
          from: draft.from,
          to: draft.to,
          weekdays: draft.weekdays,
          ...details({ ...draft, weight: '', instruction: '' }),
        },
      });
      set({ carrierId: '', senderAddressId: '', parcelCount: '' });
    });
  };
  const toggleDay = (day: number) =>
    set({ weekdays: draft.weekdays.includes(day) ? draft.weekdays.filter((d) => d !== day) : [...draft.weekdays, day].sort((a, b) => a - b) });

  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>Daily pickups</h2>
      <p className="muted">
        A daily pickup books itself each chosen day while Shipdesk runs, once a day. A failed booking shows above with the carrier’s reason.
      </p>
      <ErrorNotice error={error ?? props.error} title="The daily pickup was not saved" />
      {props.rows.length === 0 ? (
        <p className="muted">No daily pickups set.</p>
      ) : (
        <table className="plain" aria-labelledby={headingId}>
          <thead>
            <tr>
              <th scope="col">Carrier</th>
              <th scope="col">Window</th>
              <th scope="col">Days</th>
              <th scope="col">Parcels</th>
              <th scope="col">Books itself</th>
              {props.canWrite && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {props.rows.map((row) => {
              const name = carrierNames.get(row.carrierId) ?? 'Carrier';
              return (
                <tr key={row.id}>
                  <td>{name}</td>
                  <td>
                    {row.from}–{row.to}
                  </td>
                  <td>{weekdaysText(row.weekdays)}</td>
                  <td>{row.parcelCount ?? '—'}</td>
                  <td>
                    <input
                      type="checkbox"
                      checked={row.enabled}
                      disabled={!props.canWrite || busy}
                      aria-label={`${name} daily pickup books itself`}
                      onChange={(event) =>
                        void act(() =>
                          client.call('dailyPickups.update', {
                            params: { orgId: props.orgId, dailyPickupId: row.id },
                            body: { enabled: event.target.checked },
                          }),
                        )
                      }
                    />
                  </td>
                  {props.canWrite && (
                    <td>
                      <button type="button" onClick={() => setRemoving(row)} aria-label={`Delete the ${name} daily pickup`}>
                        Delete
                      </button>
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {props.canWrite && (
        <form aria-labelledby={formHeadingId} onSubmit={submit} noValidate>
          <h3 id={formHeadingId}>Set a daily pickup</h3>
          <div className="form-grid">
            <CarrierAndAddress
              carriers={props.carriers}
              addresses={props.addresses}
              carrierId={draft.carrierId}
              senderAddressId={senderAddressId}
              errors={errors}
              onChange={(change) => set(change)}
            />
            <Field label="Ready from" error={errors.from}>
              <input type="time" value={draft.from} onChange={(event) => set({ from: event.target.value })} />
            </Field>
            <Field label="Collect by" error={errors.to}>
              <input type="time" value={draft.to} onChange={(event) => set({ to: event.target.value })} />
            </Field>
            <Field label="Parcels" error={errors.parcelCount} hint="Optional">
              <input
                type="number"
                min={1}
                step={1}
                inputMode="numeric"
                value={draft.parcelCount}
                onChange={(event) => set({ parcelCount: event.target.value })}
              />
            </Field>
          </div>
          <fieldset className="weekday-choices">
            <legend>Days</legend>
            {weekdayNames.map((name, index) => (
              <label key={name} className="inline-field">
                <input type="checkbox" checked={draft.weekdays.includes(index + 1)} onChange={() => toggleDay(index + 1)} /> {name}
              </label>
            ))}
            {errors.weekdays && <small className="field-error">{errors.weekdays}</small>}
          </fieldset>
          <FormActions>
            <button type="submit" className="primary" disabled={busy || !draft.carrierId}>
              Set daily pickup
            </button>
          </FormActions>
        </form>
      )}
      <ConfirmDialog
        open={removing !== null}
        title="Delete daily pickup"
        message={removing ? `Stop booking the ${carrierNames.get(removing.carrierId) ?? 'carrier'} pickup each day? Pickups already booked stay.` : ''}
        confirmLabel="Delete daily pickup"
        onConfirm={async () => {
          const target = removing;
          setRemoving(null);
          if (target) await act(() => client.call('dailyPickups.delete', { params: { orgId: props.orgId, dailyPickupId: target.id } }));
        }}
        onCancel={() => setRemoving(null)}
      />
    </section>
  );
}
