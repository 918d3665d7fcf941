import { countryCodes } from '../../../src-shared/schemas/common';

/**
 * Finding a country by what someone typed: its code, or its name in English or Danish. Pure, so the
 * rules of the country picker (CountryPicker.tsx) are tested without a browser.
 */

export interface CountryEntry {
  /** An ISO 3166-1 alpha-2 code from `countryCodes`, or `*` for "Every country" (shipping rules). */
  code: string;
  english: string;
  danish: string;
}

/** What a shipping rule's `*` is called, and the words that find it. */
export const EVERY_COUNTRY: CountryEntry = { code: '*', english: 'Every country', danish: 'Alle lande' };

const englishNames = new Intl.DisplayNames(['en'], { type: 'region' });
const danishNames = new Intl.DisplayNames(['da'], { type: 'region' });

/** Every valid code with its two names, in English alphabetical order. */
export const countries: readonly CountryEntry[] = [...countryCodes]
  .map((code) => ({ code, english: englishNames.of(code) ?? code, danish: danishNames.of(code) ?? code }))
  .sort((a, b) => a.english.localeCompare(b.english, 'en'));

const byCode = new Map(countries.map((country) => [country.code, country]));

/**
 * Codes people type that are not the ISO code. Without them "UK" would find only Ukraine and "EL"
 * (Greece in EU VAT numbers) only El Salvador, and leaving the field would choose that one.
 */
const otherCodes: Record<string, string> = { UK: 'GB', EL: 'GR', USA: 'US' };

/** Lower case, accents off, and the Nordic letters that do not decompose spelt out: "Færøerne" → "faeroerne". */
export function searchable(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replaceAll('æ', 'ae')
    .replaceAll('ø', 'o')
    .replaceAll('œ', 'oe')
    .replaceAll('ß', 'ss')
    .replace(/\s+/g, ' ')
    .trim();
}

export function countryByCode(code: string): CountryEntry | undefined {
  return code === '*' ? EVERY_COUNTRY : byCode.get(code);
}

/** "Denmark (DK)"; a code outside the list is shown as it is. */
export function countryLabel(code: string): string {
  const country = countryByCode(code);
  if (!country) return code;
  return country.code === '*' ? country.english : `${country.english} (${country.code})`;
}

export interface CountryMatch extends CountryEntry {
  /** The Danish name, when that is what the text found (so the list shows why "Tyskland" found Germany). */
  matchedDanish: boolean;
}

/** How well a name fits the text: 0 the whole name, 1 its start, 2 the start of a later word, null not at all. */
function nameFit(name: string, text: string): number | null {
  const words = searchable(name);
  if (words === text) return 0;
  if (words.startsWith(text)) return 1;
  // "Sudan" in "South Sudan", "Kinshasa" in "Congo - Kinshasa", "Korea" in "South Korea".
  if (words.split(/[\s\-–(),.&]+/).some((word, index) => index > 0 && word.startsWith(text))) return 2;
  return null;
}

/**
 * The countries a text finds, best first: the code itself ("dk", "DK"), a whole name ("Denmark",
 * "danmark"), the start of a name ("Den"), the start of a later word ("Sudan"). A code is found
 * only whole, so "d" does not list every code with a D. `everyCountry` adds `*` ("Every country").
 */
export function findCountries(text: string, options: { everyCountry?: boolean } = {}): CountryMatch[] {
  const wanted = searchable(text);
  const entries = options.everyCountry ? [EVERY_COUNTRY, ...countries] : countries;
  // The picker's own "Denmark (DK)", typed back or pasted, is that country alone.
  const labelled = /\(([a-z]{2})\)$/.exec(wanted)?.[1];
  const named = labelled ? entries.find((entry) => entry.code.toLowerCase() === labelled) : undefined;
  if (named) return [{ ...named, matchedDanish: false }];
  if (wanted === '') return entries.map((entry) => ({ ...entry, matchedDanish: false }));
  const aliasOf = otherCodes[wanted.toUpperCase()];
  const ranked: { match: CountryMatch; rank: number; order: number }[] = [];
  entries.forEach((entry, order) => {
    const codeFits = entry.code.toLowerCase() === wanted || entry.code === aliasOf;
    const english = nameFit(entry.english, wanted);
    const danish = nameFit(entry.danish, wanted);
    // At the same fit an English name goes first: the list is in English.
    const fits = [codeFits ? 0 : null, english === null ? null : english + 1, danish === null ? null : danish + 1.5].filter(
      (rank): rank is number => rank !== null,
    );
    if (fits.length === 0) return;
    const matchedDanish = danish !== null && (english === null || danish < english) && searchable(entry.danish) !== searchable(entry.english);
    ranked.push({ match: { ...entry, matchedDanish }, rank: Math.min(...fits), order });
  });
  return ranked.sort((a, b) => a.rank - b.rank || a.order - b.order).map((item) => item.match);
}

/**
 * The code a text stands for when nothing was picked from the list (the field is left with Tab):
 * only when exactly one country is found, so a text that could be several, or none, is never
 * turned into a code. "Denmark", "danmark", "dk" → DK; "de" (Germany's code, and Denmark's start) → null.
 */
export function resolveCountry(text: string, options: { everyCountry?: boolean } = {}): string | null {
  if (searchable(text) === '') return null;
  const found = findCountries(text, options);
  const [only] = found;
  return only && found.length === 1 ? only.code : null;
}
