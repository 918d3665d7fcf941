/**
 * CN22 or CN23 (issue 21): the UPU's customs declarations for postal items. The CN22 covers contents
 * worth up to 300 SDR (the IMF's special drawing right); above that, and whenever the value cannot be
 * put in SDR, the CN23, which customs accepts for any value.
 */
import type { CustomsDeclaration } from './adapter';

export const CN22_LIMIT_SDR = 300;

/**
 * Units of each currency to one SDR: a fixed table, rounded so a value near the limit errs towards the
 * CN23 (the lower the units per SDR, the more SDR a value is). Reviewed with each release; the IMF
 * publishes the daily rates at imf.org. A currency missing here is declared on a CN23.
 */
export const UNITS_PER_SDR: Readonly<Record<string, number>> = {
  USD: 1.33,
  EUR: 1.15,
  GBP: 0.98,
  DKK: 8.6,
  SEK: 12.5,
  NOK: 13.3,
  CHF: 1.06,
  ISK: 180,
  PLN: 4.9,
  JPY: 195,
  CAD: 1.83,
  AUD: 2.0,
};

/** The declared value in SDR, or null when its currency is not in the table. */
export function valueInSdr(value: number, currency: string): number | null {
  const units = UNITS_PER_SDR[currency];
  return units === undefined ? null : value / units;
}

export function postalFormFor(declaration: Pick<CustomsDeclaration, 'totalValue' | 'currency'>): 'cn22' | 'cn23' {
  const sdr = valueInSdr(declaration.totalValue, declaration.currency);
  return sdr !== null && sdr <= CN22_LIMIT_SDR ? 'cn22' : 'cn23';
}
