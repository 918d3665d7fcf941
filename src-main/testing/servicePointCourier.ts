/**
 * A stand-in carrier with service points, for tests that mock the carrier registry (vi.mock of
 * carriers/registry): it books like `local`, offers products that require, allow or have no service
 * point, and answers its lookup from `servicePointCourier` (a fixed list, or a failure), noting each
 * query and booking request so tests can see what the carrier was asked.
 */
import type { ServicePoint } from '../../src-shared/schemas/carrier';
import type { BookingRequest, CarrierAdapter, ServicePointQuery } from '../carriers/adapter';
import type { CarrierFailure } from '../carriers/errors';

export const POINT_COURIER_SLUG = 'test-points';

export const servicePointCourier: {
  points: ServicePoint[];
  failure: CarrierFailure | null;
  queries: ServicePointQuery[];
  bookings: BookingRequest[];
} = { points: [], failure: null, queries: [], bookings: [] };

export function resetServicePointCourier(points: ServicePoint[] = []): void {
  servicePointCourier.points = points;
  servicePointCourier.failure = null;
  servicePointCourier.queries = [];
  servicePointCourier.bookings = [];
}

export function servicePoint(id: string, distanceMeters: number | null, more: Partial<ServicePoint> = {}): ServicePoint {
  return {
    id,
    name: `Kiosk ${id}`,
    address1: `Storegade ${id}`,
    postalCode: '1165',
    city: 'København K',
    countryCode: 'DK',
    distanceMeters,
    latitude: 55.68,
    longitude: 12.57,
    openingHours: [{ day: 'monday', open: '08:00', close: '20:00' }],
    ...more,
  };
}

const product = (productId: string, name: string, mode: 'required' | 'optional' | 'none') => ({
  productId,
  name,
  type: 'outbound' as const,
  description: name,
  services: [],
  labelSizes: ['100X150' as const],
  servicePoint: mode,
});

export function servicePointCourierAdapter(local: CarrierAdapter): CarrierAdapter {
  return {
    ...local,
    slug: POINT_COURIER_SLUG,
    checkConfig: undefined,
    describe: {
      ...local.describe,
      name: 'Point courier',
      fields: [{ name: 'API key', key: 'apiKey', type: 'password', description: '', options: [], required: true }],
    },
    products: () => [
      product('pt_collect', 'Point Collect', 'required'),
      product('pt_home', 'Point Home', 'optional'),
      product('pt_pallet', 'Point Pallet', 'none'),
    ],
    book: async (context, request) => {
      servicePointCourier.bookings.push(request);
      return local.book(context, request);
    },
    servicePoints: async (context, query) => {
      servicePointCourier.queries.push(query);
      // As the platform's HTTP client would record the call, with the key a carrier might echo.
      context.http.calls.push({
        request: { operation: 'servicePoints', apiKey: context.config.apiKey, ...query },
        response: servicePointCourier.failure ? null : { count: servicePointCourier.points.length },
        statusCode: servicePointCourier.failure ? 503 : 200,
        error: servicePointCourier.failure?.message ?? null,
        durationMs: 3,
      });
      if (servicePointCourier.failure) throw servicePointCourier.failure;
      return servicePointCourier.points;
    },
  };
}
