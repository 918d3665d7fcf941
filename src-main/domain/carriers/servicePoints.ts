/**
 * Service points (decisions §13): the carrier's own lookup, nearest to an address first. The `local`
 * carrier, and any carrier without a lookup, has none and answers [].
 */
import type { ApiError } from '../../../src-shared/errors';
import type { ServicePoint, ServicePointList, ServicePointQueryInput } from '../../../src-shared/schemas/carrier';
import type { AppContext } from '../../app/kernel/context';
import type { ServicePointQuery } from '../../carriers/adapter';
import { CarrierFailure } from '../../carriers/errors';
import { carrierCallError } from './callFailure';
import type { carriers } from '../../db/schema';
import { carrierCall, type CarrierCall } from './carrierCalls';
import { findCarrierRow } from './carriers';

type CarrierRow = typeof carriers.$inferSelect;

/** A carrier's answer in distance order (a carrier giving none keeps its own order, after those it measured), cut to the limit. */
export function nearestFirst(points: readonly ServicePoint[], limit: number): ServicePoint[] {
  const measured = points.filter((point) => point.distanceMeters !== null).sort((a, b) => (a.distanceMeters as number) - (b.distanceMeters as number));
  const unmeasured = points.filter((point) => point.distanceMeters === null);
  return [...measured, ...unmeasured].slice(0, limit);
}

/**
 * Asks the carrier through a call the caller holds (so its logs can go with a shipment). Throws the
 * adapter's CarrierFailure; [] when the carrier has no lookup.
 */
export async function lookUpServicePoints(call: CarrierCall, query: ServicePointQuery): Promise<ServicePoint[]> {
  if (!call.adapter.servicePoints) return [];
  return nearestFirst(await call.adapter.servicePoints(call.context, query), query.limit);
}

/** A failed lookup as the API answers it: the carrier's words plus what to do. */
export function servicePointLookupError(carrierName: string, failure: CarrierFailure): ApiError {
  return carrierCallError(carrierName, failure, { afterAuth: 'no service points could be looked up', failed: 'could not look up service points' });
}

/** GET /carriers/{carrierId}/service-points. */
export async function carrierServicePoints(app: AppContext, orgId: string, carrierId: string, query: ServicePointQueryInput): Promise<ServicePointList> {
  const row: CarrierRow = findCarrierRow(app.db, orgId, carrierId);
  try {
    const data = await lookUpServicePoints(carrierCall(app, row), {
      countryCode: query.countryCode,
      postalCode: query.postalCode,
      address1: query.address1?.trim() || null,
      city: query.city?.trim() || null,
      limit: query.limit,
    });
    return { data };
  } catch (error) {
    if (error instanceof CarrierFailure) throw servicePointLookupError(row.name, error);
    throw error;
  }
}
