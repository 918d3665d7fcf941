import { z } from 'zod';
// Plain-language validation messages for every schema (imported once, here, by all of them).
import '../validationMessages';

/** Text fields are bounded (decisions §1 "Sizes"). */
export const MAX_TEXT = 1000;
export const text = () => z.string().max(MAX_TEXT);
export const requiredText = () => z.string().min(1).max(MAX_TEXT);
export const email = () => z.email().max(320);
export const timestamp = () => z.string().describe('ISO 8601 UTC timestamp with milliseconds');
export const id = () => z.string().min(1).max(64);
/**
 * A coded field that a read shows as "" when it has no value (decisions: empty values), accepted as ""
 * too, so a shipment read can be sent back as it is. "" is stored as no value.
 */
export const emptyOr = <T extends z.ZodType>(schema: T) => z.union([z.literal(''), schema]);

/** How deeply an open object may nest: ample for carrier parameters, far below SQLite's JSON limit (1000). */
export const MAX_OPEN_DEPTH = 10;
const MAX_OPEN_ISSUES = 10;

/** Where an open value breaks the text or depth bound; walked with a stack, so any nesting is safe. */
export function openValueProblems(root: Record<string, unknown>): { path: PropertyKey[]; message: string }[] {
  const problems: { path: PropertyKey[]; message: string }[] = [];
  const stack: { value: unknown; path: PropertyKey[]; depth: number }[] = [{ value: root, path: [], depth: 1 }];
  while (stack.length && problems.length < MAX_OPEN_ISSUES) {
    const { value, path, depth } = stack.pop() as (typeof stack)[number];
    if (typeof value === 'string') {
      if (value.length > MAX_TEXT) problems.push({ path, message: `Must be at most ${MAX_TEXT} characters` });
    } else if (value !== null && typeof value === 'object') {
      if (depth > MAX_OPEN_DEPTH) {
        problems.push({ path, message: `Nests too deeply (at most ${MAX_OPEN_DEPTH} levels of objects and arrays)` });
        continue;
      }
      for (const [key, child] of Object.entries(value)) {
        const childPath = [...path, Array.isArray(value) ? Number(key) : key];
        if (key.length > MAX_TEXT) problems.push({ path: childPath, message: `A key must be at most ${MAX_TEXT} characters` });
        else stack.push({ value: child, path: childPath, depth: depth + 1 });
      }
    }
  }
  return problems;
}

/**
 * An object whose inner structure the spec leaves open (`additionalParameters`, `customs`,
 * `externalData`): any JSON, but its keys and texts are bounded like every text field
 * (decisions §1 "Sizes") and its nesting is bounded, so storing and reading it back cannot fail.
 */
export const openObject = () =>
  z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    for (const problem of openValueProblems(value)) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  });

// ISO 3166-1 alpha-2, the officially assigned codes.
const countryList =
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO ' +
  'FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE ' +
  'JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO ' +
  'MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW ' +
  'PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM ' +
  'TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW';
export const countryCodes: ReadonlySet<string> = new Set(countryList.split(' '));

export const countryCode = () =>
  z
    .string()
    .refine((value) => countryCodes.has(value), {
      message: 'Must be an upper-case ISO 3166-1 alpha-2 country code, e.g. DK',
    })
    .describe('ISO 3166-1 alpha-2 country code, upper case');

// ISO 4217 as the platform's Intl knows it (the same list in Node and in Chromium).
let currencySet: Set<string> | undefined;
export function isCurrencyCode(value: string): boolean {
  currencySet ??= new Set(Intl.supportedValuesOf('currency'));
  return currencySet.has(value);
}
/**
 * An EORI number (the EU's Economic Operators Registration and Identification): the issuing country's
 * two letters and up to 15 letters or digits, upper case and without spaces, as customs systems take it.
 */
export const eoriNumber = () =>
  z
    .string()
    .regex(/^[A-Z]{2}[A-Z0-9]{1,15}$/, 'Must be an EORI number: two upper-case country letters and up to 15 letters or digits, e.g. DK12345678')
    .describe('EORI number, e.g. DK12345678');

export const currencyCode = () =>
  z.string().refine(isCurrencyCode, { message: 'Must be an upper-case ISO 4217 currency code, e.g. DKK' }).describe('ISO 4217 currency code');

/**
 * A whole number from a query string ("20") or from an IPC caller (20). Only plain digits count:
 * "1e2", "0x10" or " 5" are refused rather than guessed at.
 */
export const wholeNumberParam = (min: number, max: number) =>
  z
    // The union's own message: "abc", "" or a repeated key (?page=1&page=2 comes as a list) would
    // otherwise read "Not one of the accepted forms".
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^\d{1,16}$/)
          .transform(Number),
      ],
      { error: `Must be a whole number from ${min} to ${max}` },
    )
    .pipe(z.number().int().min(min).max(max));

/**
 * A list's free-text search. Blank (`?search=`, as a script or a cleared search box sends it) is no
 * filter, and the spaces a scanner or a paste adds around a code are dropped.
 */
export const searchText = () =>
  z
    .string()
    .max(200)
    .transform((text) => text.trim() || undefined)
    .optional();

/** `true` or `false` in a query string (or a boolean from the app's IPC door); anything else is refused, not guessed at. */
export const booleanParam = () => z.union([z.boolean(), z.enum(['true', 'false']).transform((text) => text === 'true')], { error: 'Must be true or false' });

/** List bounds are rejected, never clamped (decisions §1 "Lists"). */
/**
 * A bound of a `createdFrom`/`createdTo` list filter, both inclusive: a day (`2026-11-27`, a UTC day:
 * from its first millisecond, to its last) or an instant (`2026-11-27T08:00:00.000Z`, or with an
 * offset: the screens send their own day's bounds so). Returned as the ISO instant to compare
 * `createdAt` with; `end` picks a day's last millisecond.
 */
export const createdBound = (end: 'start' | 'end') =>
  z
    .union([z.iso.date(), z.iso.datetime({ offset: true })])
    .transform((value) => {
      if (value.length === 10) return end === 'start' ? `${value}T00:00:00.000Z` : `${value}T23:59:59.999Z`;
      return new Date(value).toISOString();
    })
    .describe('A day (YYYY-MM-DD, UTC) or an ISO 8601 instant; inclusive')
    .optional();

export const pageQuery = z.strictObject({
  page: wholeNumberParam(1, Number.MAX_SAFE_INTEGER).default(1),
  limit: wholeNumberParam(1, 100).default(20),
});
export type PageQuery = z.output<typeof pageQuery>;

export function pageOf<T extends z.ZodType>(item: T) {
  return z.strictObject({
    data: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    totalPages: z.number().int(),
  });
}

export interface Page<T> {
  data: T[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

export const messageResponse = z.strictObject({ message: z.string() });

/** A POST that takes no body: nothing, or an empty object. */
export const noBody = z.strictObject({}).optional();
