/**
 * decisions §13: a shipment delivered to a service point carries it as a `service_point` party, so
 * the label, the papers and the carrier see its name and address beside `servicePointId`. The app's
 * picker and order-based create build it the same way, from a service point lookup.
 */
import type { ServicePoint } from './schemas/carrier';
import type { PartyInput } from './schemas/shipment';

export const SERVICE_POINT_PARTY = 'service_point';
/** The carrier's id of the point, kept on the party so a stale party (another point chosen since) can be told apart. */
export const SERVICE_POINT_ID_ATTRIBUTE = 'servicePointId';

export function servicePointParty(point: ServicePoint): PartyInput {
  return {
    type: SERVICE_POINT_PARTY,
    name: point.name,
    address1: point.address1,
    postalCode: point.postalCode,
    city: point.city,
    countryCode: point.countryCode,
    attributes: [{ name: SERVICE_POINT_ID_ATTRIBUTE, value: point.id }],
  };
}

/** The parties with the service point's party in place of any earlier one (none when `point` is null). */
export function withServicePointParty<P extends { type: string }>(parties: readonly P[], point: P | null): P[] {
  const others = parties.filter((party) => party.type !== SERVICE_POINT_PARTY);
  return point ? [...others, point] : others;
}
