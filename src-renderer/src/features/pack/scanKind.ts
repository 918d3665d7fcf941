import type { WeightUnit } from '../../../../src-shared/schemas/shipment';

/**
 * What a code read into the Pack scan box is, by its form alone (issue 20; decisions "Packing station
 * and scanning"). A barcode scanner, a USB scale that types like a keyboard and a person typing all
 * write into the same box, so one rule tells them apart:
 * - an **item**: the code is a SKU or barcode of a line of the shipment being checked (this wins);
 * - a **weight**: a number with a unit (`1,25 kg`, `1250 g`, `2 lb`, `12 oz`) or with a decimal point or
 *   comma (`1.25`, read as kg); a whole number alone is never a weight (it may be an order number);
 * - an **EAN**: 8, 12, 13 or 14 digits whose last digit is the GTIN check digit (a product's barcode);
 * - otherwise a **code**: an order number, a shipment reference, a label's barcode or an unknown SKU.
 */
export type ScanKind<Line> =
  { kind: 'item'; lines: Line[] } | { kind: 'weight'; weight: number; weightUnit: WeightUnit } | { kind: 'ean'; code: string } | { kind: 'code'; code: string };

const WEIGHT = /^\+?(\d{1,6}(?:[.,]\d{1,4})?)\s*(kg|g|lbs?|oz)\.?$/i;
const DECIMAL = /^\+?(\d{1,6}[.,]\d{1,4})$/;

/** A weight as a scale or a person types it, or null. */
export function parseWeight(code: string): { weight: number; weightUnit: WeightUnit } | null {
  const text = code.trim();
  const withUnit = WEIGHT.exec(text);
  const bare = withUnit ? null : DECIMAL.exec(text);
  const number = withUnit?.[1] ?? bare?.[1];
  if (number === undefined) return null;
  const unit = (withUnit?.[2] ?? 'kg').toLowerCase();
  const weightUnit: WeightUnit = unit.startsWith('lb') ? 'lb' : (unit as WeightUnit);
  return { weight: Number(number.replace(',', '.')), weightUnit };
}

/** Whether the code is a GTIN (EAN-8, UPC-A, EAN-13, GTIN-14) with a right check digit. */
export function isGtin(code: string): boolean {
  if (!/^(\d{8}|\d{12,14})$/.test(code)) return false;
  const digits = [...code].map(Number);
  const check = digits.pop() as number;
  // From the right, the digits before the check digit weigh 3, 1, 3, 1, …
  const sum = digits.reverse().reduce((total, digit, index) => total + digit * (index % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}

/** One GTIN however it was printed or typed: a UPC-A read as EAN-13 has a leading 0 more. */
function gtinKey(code: string): string | null {
  return isGtin(code) ? code.padStart(14, '0') : null;
}

/** Whether a scanned code is one of a line's codes: exactly, as the same GTIN, or ignoring case (a scanner left in caps lock). */
export function codeMatches(scanned: string, lineCode: string | null | undefined): boolean {
  if (!lineCode) return false;
  if (scanned === lineCode || scanned.toLowerCase() === lineCode.toLowerCase()) return true;
  const a = gtinKey(scanned);
  return a !== null && a === gtinKey(lineCode);
}

/**
 * The kind of a scan. `lines` are the lines being checked with their codes (SKU, barcode), in order;
 * every line whose code matches is named (two lines may share a SKU), and a SKU that looks like a
 * weight or an EAN is still an item.
 */
export function classifyScan<Line>(
  code: string,
  lines: readonly Line[] = [],
  codesOf: (line: Line) => readonly (string | null | undefined)[] = () => [],
): ScanKind<Line> {
  const matching = lines.filter((candidate) => codesOf(candidate).some((lineCode) => codeMatches(code, lineCode)));
  if (matching.length) return { kind: 'item', lines: matching };
  const weight = parseWeight(code);
  if (weight) return { kind: 'weight', ...weight };
  if (isGtin(code)) return { kind: 'ean', code };
  return { kind: 'code', code };
}
