import type { ServicePoint } from '../../../src-shared/schemas/carrier';
import type { GlsParcelShop, glsWeekdays } from './contract';

/** ShipIT's ParcelShops as Shipdesk's service points (decisions §13), nearest first. */

const dayNames: Record<(typeof glsWeekdays)[number], string> = {
  MON: 'monday',
  TUE: 'tuesday',
  WED: 'wednesday',
  THU: 'thursday',
  FRI: 'friday',
  SAT: 'saturday',
  SUN: 'sunday',
};

const HOUR_MS = 3_600_000;

/**
 * ShipIT's REST hours are milliseconds since midnight shifted by one hour (28800000 is 09:00); a
 * date-time, as the OpenAPI has it, is read as the local time it names.
 */
export function glsHourOfDay(value: number | string): number | null {
  if (typeof value === 'number') return value + HOUR_MS < 0 ? null : Math.round((value + HOUR_MS) / 60_000);
  const time = /T(\d{2}):(\d{2})/.exec(value) ?? /^(\d{2}):(\d{2})/.exec(value);
  return time ? Number(time[1]) * 60 + Number(time[2]) : null;
}

const clock = (minutes: number) => `${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

type Range = [number, number];

/** Opening ranges with the breaks taken out (ShipIT sends the lunch break apart from the day). */
function openRanges(openings: Range[], breaks: Range[]): Range[] {
  let ranges = openings;
  for (const [from, to] of breaks) {
    ranges = ranges.flatMap(([open, close]): Range[] => {
      if (to <= open || from >= close) return [[open, close]];
      return [
        [open, from],
        [to, close],
      ].filter(([a, b]) => b! > a!) as Range[];
    });
  }
  return ranges;
}

function ranges(list: { OpeningHours: { From: number | string; To: number | string }[] } | undefined): Range[] {
  return (list?.OpeningHours ?? []).flatMap(({ From, To }): Range[] => {
    const from = glsHourOfDay(From);
    const to = glsHourOfDay(To);
    return from === null || to === null || to <= from ? [] : [[from, to]];
  });
}

export function servicePointOf(shop: GlsParcelShop): ServicePoint {
  const { Address: address } = shop;
  const distance = shop.AirlineDistance === undefined ? NaN : Number(shop.AirlineDistance);
  return {
    id: shop.ParcelShopID,
    name: address.Name1,
    address1: [address.Street, address.StreetNumber].filter(Boolean).join(' '),
    postalCode: address.ZIPCode ?? '',
    city: address.City,
    countryCode: address.CountryCode,
    distanceMeters: Number.isFinite(distance) ? distance : null,
    latitude: shop.Location?.Latitude ?? null,
    longitude: shop.Location?.Longitude ?? null,
    openingHours: shop.WorkingDay.flatMap((day) =>
      openRanges(ranges(day.OpeningHours), ranges(day.Breaks)).map(([open, close]) => ({
        day: dayNames[day.DayOfWeek],
        open: clock(open),
        close: clock(close),
      })),
    ),
  };
}

export function servicePointsOf(shops: readonly GlsParcelShop[], limit: number): ServicePoint[] {
  return shops
    .map(servicePointOf)
    .sort((a, b) => (a.distanceMeters ?? Infinity) - (b.distanceMeters ?? Infinity))
    .slice(0, limit);
}
