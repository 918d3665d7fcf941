import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import type { ServicePoint } from '../../../src-shared/schemas/carrier';
import { useOperation } from '../lib/useOperation';
import { useOrgId } from '../lib/session';
import { useDebounced } from '../features/shipments/useDebounced';
import { ErrorNotice } from './ErrorNotice';
import { compactOpeningHours, formatDistance, pointAddress } from './servicePointText';

/** Where the parcel goes: the service points nearest to it are offered first. */
export interface PickerAddress {
  countryCode: string;
  postalCode: string;
  address1: string;
  city: string;
}

/**
 * Whether the carrier's product delivers to a service point (decisions §13), read from the carrier's
 * products through the cache; 'none' while unknown.
 */
export function useServicePointMode(carrierId: string, productId: string): 'required' | 'optional' | 'none' {
  const orgId = useOrgId();
  const products = useOperation('carriers.products', carrierId ? { params: { orgId, carrierId } } : null);
  if (!carrierId || !productId) return 'none';
  return products.data?.find((product) => product.productId === productId)?.servicePoint ?? 'none';
}

/**
 * The service point of a shipment, for a product that delivers to one (decisions §13): the
 * carrier's points nearest to the receiver first, each with its address, distance and opening
 * hours, as a group of radio buttons under one legend. Another postal code can be searched. Nothing
 * is shown for a product without service points.
 */
export function ServicePointPicker({
  carrierId,
  productId,
  address,
  value,
  onChange,
  unchosenHint,
  disabled,
}: {
  carrierId: string;
  productId: string;
  address: PickerAddress;
  /** The chosen point's id; null for none. */
  value: string | null;
  /** The point chosen, with its name and address for the shipment's service_point party; null for none. */
  onChange: (point: ServicePoint | null) => void;
  /** What happens when none is chosen, where that is not simply "none" (order-based create picks the nearest). */
  unchosenHint?: string;
  disabled?: boolean;
}) {
  const mode = useServicePointMode(carrierId, productId);
  if (mode === 'none') return null;
  return (
    <PointList
      carrierId={carrierId}
      required={mode === 'required'}
      address={address}
      value={value}
      onChange={onChange}
      unchosenHint={unchosenHint}
      disabled={disabled}
    />
  );
}

function PointList({
  carrierId,
  required,
  address,
  value,
  onChange,
  unchosenHint,
  disabled,
}: {
  carrierId: string;
  required: boolean;
  address: PickerAddress;
  value: string | null;
  onChange: (point: ServicePoint | null) => void;
  unchosenHint: string | undefined;
  disabled: boolean | undefined;
}) {
  const orgId = useOrgId();
  const groupName = useId();
  const searchId = useId();
  const hintId = useId();
  // The receiver's postal code until another is searched; a new receiver postal code starts over.
  const [typed, setTyped] = useState(address.postalCode);
  const [searched, setSearched] = useState(address.postalCode);
  useEffect(() => {
    setTyped(address.postalCode);
    setSearched(address.postalCode);
  }, [address.postalCode]);
  // A postal code typed into the receiver asks the carrier once it has settled, not at every key.
  const postalCode = useDebounced(searched.trim(), 400);
  const countryCode = address.countryCode;
  const atReceiver = postalCode === address.postalCode.trim();
  const points = useOperation(
    'carriers.servicePoints',
    countryCode && postalCode
      ? {
          params: { orgId, carrierId },
          query: {
            countryCode,
            postalCode,
            // The street and city belong to the receiver's postal code only.
            ...(atReceiver && address.address1.trim() ? { address1: address.address1.trim() } : {}),
            ...(atReceiver && address.city.trim() ? { city: address.city.trim() } : {}),
            limit: 10,
          },
        }
      : null,
  );
  const found = points.data?.data ?? [];
  const chosenElsewhere = value !== null && value !== '' && !found.some((point) => point.id === value);

  const search = () => setSearched(typed);
  const onSearchKey = (event: KeyboardEvent<HTMLInputElement>) => {
    // Enter searches here instead of saving the form around the picker.
    if (event.key === 'Enter') {
      event.preventDefault();
      event.stopPropagation();
      search();
    }
  };

  return (
    <fieldset className="service-point-picker" aria-describedby={hintId} disabled={disabled}>
      <legend>Service point {required ? '(required)' : '(optional)'}</legend>
      <p id={hintId} className="muted">
        {!countryCode || !postalCode
          ? 'Give the receiver’s country and postal code to see the service points near them.'
          : `Nearest to ${postalCode}${atReceiver && address.city ? ` ${address.city}` : ''} first.`}
        {unchosenHint ? ` ${unchosenHint}` : ''}
      </p>
      <div className="service-point-search">
        <label htmlFor={searchId}>Search near postal code</label>
        <input
          id={searchId}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          onKeyDown={onSearchKey}
        />
        <button type="button" onClick={search} disabled={!typed.trim()}>
          Search
        </button>
      </div>
      {points.loading && !points.data && <p className="muted">Looking up service points…</p>}
      <ErrorNotice error={points.error} title="The carrier’s service points could not be looked up" />
      <div className="service-point-options">
        {!required && (
          <label className="service-point-option">
            <input type="radio" name={groupName} checked={!value} onChange={() => onChange(null)} />
            <span className="service-point-name">No service point</span>
            <span className="muted">Delivered to the receiver’s address</span>
          </label>
        )}
        {chosenElsewhere && (
          <label className="service-point-option">
            <input type="radio" name={groupName} checked readOnly />
            <span className="service-point-name">{value}</span>
            <span className="muted">Chosen before; not among the points found here</span>
          </label>
        )}
        {found.map((point) => {
          const distance = formatDistance(point.distanceMeters);
          const hours = compactOpeningHours(point.openingHours);
          return (
            <label key={point.id} className="service-point-option">
              <input type="radio" name={groupName} value={point.id} checked={value === point.id} onChange={() => onChange(point)} />
              <span className="service-point-name">{point.name}</span>
              <span>
                {pointAddress(point)}
                {distance && <span className="muted"> · {distance}</span>}
              </span>
              {hours && <span className="muted service-point-hours">{hours}</span>}
            </label>
          );
        })}
      </div>
      {points.data && found.length === 0 && !points.loading && (
        <p className="muted">
          No service points found near {postalCode}
          {required ? '; search another postal code.' : '.'}
        </p>
      )}
    </fieldset>
  );
}
