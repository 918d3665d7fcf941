/**
 * The service point of an order-based shipment (decisions §13): the one the order (or the request)
 * names, else, when the product requires one, the nearest to the receiver. The carrier is asked
 * before the write transaction, so no write waits on the network; a failed lookup never fails the
 * create: the shipment is made without a service point and an error entry says why.
 */
import type { CarrierErrorItem } from '../../../src-shared/errors';
import type { ServicePoint } from '../../../src-shared/schemas/carrier';
import type { PartyInput } from '../../../src-shared/schemas/shipment';
import { SERVICE_POINT_PARTY, servicePointParty } from '../../../src-shared/servicePointParty';
import type { AppContext } from '../../app/kernel/context';
import type { CarrierCallLog } from '../../carriers/adapter';
import { CarrierFailure } from '../../carriers/errors';
import { carrierCall } from '../carriers/carrierCalls';
import { findCarrierRow, productsOfCarrier } from '../carriers/carriers';
import { lookUpServicePoints } from '../carriers/servicePoints';
import type { CarrierSecrets } from './carrierLogs';

/** What the lookup found for one carrier and product; applied only if the write resolves the same ones. */
export interface ServicePointChoice {
  carrierId: string;
  productId: string;
  servicePointId: string | null;
  /** The point's name and address, when a lookup found it. */
  party: PartyInput | null;
  /** Why the shipment has no service point although its product requires one. */
  error: CarrierErrorItem | null;
  /** The lookup's calls, for the shipment's logs[]. */
  calls: readonly CarrierCallLog[];
  secrets: CarrierSecrets;
}

/** Enough to find points near the receiver; the carrier's own lookup may read more. */
const LOOKUP_LIMIT = 10;
/** A named point is looked for among this many near the receiver, to fill its party. */
const NAMED_POINT_LIMIT = 50;

export async function chooseServicePoint(
  app: AppContext,
  orgId: string,
  carrier: { carrierId: string; productId: string },
  receiver: PartyInput,
  named: string | null,
  givenParties: readonly PartyInput[],
): Promise<ServicePointChoice | null> {
  const row = findCarrierRow(app.db, orgId, carrier.carrierId);
  const product = productsOfCarrier(app, row).find((candidate) => candidate.productId === carrier.productId);
  const mode = product?.servicePoint ?? 'none';
  if (mode === 'none') return null;
  // A request that brings the point's party has nothing to look up.
  if (named !== null && givenParties.some((party) => party.type === SERVICE_POINT_PARTY)) return null;
  if (named === null && mode !== 'required') return null;

  const call = carrierCall(app, row);
  const choice = (found: Partial<ServicePointChoice>): ServicePointChoice => ({
    ...carrier,
    servicePointId: named,
    party: null,
    error: null,
    calls: call.context.http.calls,
    secrets: call.secrets,
    ...found,
  });
  const query = {
    countryCode: receiver.countryCode,
    postalCode: receiver.postalCode,
    address1: receiver.address1,
    city: receiver.city,
    limit: named === null ? LOOKUP_LIMIT : NAMED_POINT_LIMIT,
  };
  let points: ServicePoint[];
  try {
    points = await lookUpServicePoints(call, query);
  } catch (error) {
    if (!(error instanceof CarrierFailure)) throw error;
    // A named point stays named: the carrier knows it by its id; only its party is left out.
    if (named !== null) return choice({});
    const words = error.errors.map((item) => item.message).join('; ') || error.message;
    return choice({
      error: {
        code: 'SERVICE_POINT_LOOKUP_FAILED',
        message: `${product?.name ?? carrier.productId} needs a service point, but ${row.name} could not be asked for the nearest (${words}). Choose one before sending.`,
      },
    });
  }
  if (named !== null) {
    const point = points.find((candidate) => candidate.id === named);
    return choice({ party: point ? servicePointParty(point) : null });
  }
  const nearest = points[0];
  if (!nearest) {
    return choice({
      error: {
        code: 'SERVICE_POINT_NOT_FOUND',
        message: `${product?.name ?? carrier.productId} needs a service point, but ${row.name} has none near ${receiver.postalCode} ${receiver.city} (${receiver.countryCode}). Choose one before sending.`,
      },
    });
  }
  return choice({ servicePointId: nearest.id, party: servicePointParty(nearest) });
}
