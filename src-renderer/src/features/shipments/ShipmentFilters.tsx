import { useId } from 'react';
import type { Carrier } from '../../../../src-shared/schemas/carrier';
import { CountryPicker } from '../../components/CountryPicker';
import { noShipmentFilters, type ShipmentFilterValues } from './listState';

/** Carrier, receiver country and the days a shipment was created in: the list's filters beside status and search. */
export function ShipmentFilters({
  value,
  onChange,
  carriers,
}: {
  value: ShipmentFilterValues;
  onChange: (next: ShipmentFilterValues) => void;
  carriers: readonly Pick<Carrier, 'id' | 'name'>[] | undefined;
}) {
  const countryId = useId();
  const set = (change: Partial<ShipmentFilterValues>) => onChange({ ...value, ...change });
  const any = Object.values(value).some(Boolean);
  return (
    <>
      <label className="inline-field">
        Carrier{' '}
        <select value={value.carrierId} onChange={(event) => set({ carrierId: event.target.value })}>
          <option value="">All</option>
          {(carriers ?? []).map((carrier) => (
            <option key={carrier.id} value={carrier.id}>
              {carrier.name}
            </option>
          ))}
        </select>
      </label>
      <div className="inline-field country-filter">
        <label htmlFor={countryId}>Country</label>
        <CountryPicker id={countryId} value={value.country} onChange={(country) => set({ country })} placeholder="Any" />
      </div>
      <label className="inline-field">
        Created from{' '}
        <input type="date" value={value.createdFrom} max={value.createdTo || undefined} onChange={(event) => set({ createdFrom: event.target.value })} />
      </label>
      <label className="inline-field">
        Created to{' '}
        <input type="date" value={value.createdTo} min={value.createdFrom || undefined} onChange={(event) => set({ createdTo: event.target.value })} />
      </label>
      {any && (
        <button type="button" onClick={() => onChange(noShipmentFilters)}>
          Clear filters
        </button>
      )}
    </>
  );
}
