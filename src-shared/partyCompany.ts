/**
 * A party has no company field (interface 2.2), but a business delivery needs the company on the
 * label: the driver looks for it at the door. An order's shipping address may have both a contact
 * (attention) and a company, so the company travels as the party attribute `company`, and the
 * label, the papers and the carrier read it back from there.
 */

type Attribute = { name: string; value: string };

export const COMPANY_ATTRIBUTE = 'company';

export function companyAttribute(company: string): Attribute {
  return { name: COMPANY_ATTRIBUTE, value: company };
}

/** The company to print, or null when there is none or the name or attention already shows it. */
export function printedCompany(party: { name: string; attention?: string | null; attributes?: readonly Attribute[] | null }): string | null {
  const company = party.attributes?.find((attribute) => attribute.name === COMPANY_ATTRIBUTE)?.value.trim();
  if (!company) return null;
  const shown = [party.name, party.attention].map((value) => value?.trim().toLowerCase());
  return shown.includes(company.toLowerCase()) ? null : company;
}
