/**
 * Which customs territory an address is in (issue 21), so a shipment leaving the sender's territory is
 * declared to customs. The EU's customs union is one territory, but some of its members' places are
 * outside its customs or VAT area, and goods sent there need the same papers as an export: they are
 * decided by country and postal code. Everything else is its own territory, with the few unions a
 * warehouse meets (Switzerland with Liechtenstein).
 */

/** The EU's members, plus Monaco (in the EU's customs territory through France). */
const EU = new Set([
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
  'MC',
]);

/** Greece is `EL` in EU usage; ISO says `GR`. */
const ALIASES: Record<string, string> = { EL: 'GR', UK: 'GB' };

interface SpecialPlace {
  name: string;
  country: string;
  /** Postal code prefixes, compared with spaces and dashes removed. */
  prefixes: readonly string[];
}

/**
 * Places of EU members outside the EU's customs or VAT area, found by the member's own postal codes
 * (the ones with their own ISO codes, such as Åland `AX`, are outside by country already).
 */
const SPECIAL_PLACES: readonly SpecialPlace[] = [
  { name: 'the Canary Islands', country: 'ES', prefixes: ['35', '38'] },
  { name: 'Ceuta', country: 'ES', prefixes: ['51'] },
  { name: 'Melilla', country: 'ES', prefixes: ['52'] },
  { name: 'Åland', country: 'FI', prefixes: ['22'] },
  { name: 'Heligoland', country: 'DE', prefixes: ['27498'] },
  { name: 'Büsingen am Hochrhein', country: 'DE', prefixes: ['78266'] },
  { name: 'Livigno', country: 'IT', prefixes: ['23041'] },
  { name: "Campione d'Italia", country: 'IT', prefixes: ['22061'] },
  { name: 'Mount Athos', country: 'GR', prefixes: ['63086'] },
  { name: "France's overseas departments", country: 'FR', prefixes: ['971', '972', '973', '974', '976'] },
];

/** Unions outside the EU whose members share one customs territory. */
const UNIONS: readonly (readonly string[])[] = [['CH', 'LI']];

export interface TerritoryAddress {
  countryCode: string;
  postalCode: string;
}

export interface Territory {
  /** `EU`, a union's first member, or the country itself; a special place is named by `country:place`. */
  id: string;
  name: string;
}

function normalCountry(countryCode: string): string {
  const upper = countryCode.trim().toUpperCase();
  return ALIASES[upper] ?? upper;
}

function specialPlaceOf(country: string, postalCode: string): SpecialPlace | undefined {
  const compact = postalCode.replace(/[\s-]/g, '');
  return SPECIAL_PLACES.find((place) => place.country === country && place.prefixes.some((prefix) => compact.startsWith(prefix)));
}

export function territoryOf(address: TerritoryAddress): Territory {
  const country = normalCountry(address.countryCode);
  if (EU.has(country)) {
    const special = specialPlaceOf(country, address.postalCode);
    if (special) return { id: `${country}:${special.name}`, name: special.name };
    return { id: 'EU', name: "the EU's customs territory" };
  }
  const union = UNIONS.find((members) => members.includes(country));
  return union ? { id: union[0] as string, name: union.join('/') } : { id: country, name: country };
}

/** True when goods from `sender` to `receiver` leave the sender's customs territory and need a declaration. */
export function crossesCustomsBorder(sender: TerritoryAddress, receiver: TerritoryAddress): boolean {
  return territoryOf(sender).id !== territoryOf(receiver).id;
}
