/**
 * What an export still lacks before any carrier hears of it (issue 21): every parcel line needs what a
 * customs officer reads, and an exporter leaving the EU needs an EORI number. Listed in plain words,
 * beside the send's other checks, so the packer fixes everything in one go.
 */
import type { ErrorDetail } from '../../../src-shared/errors';
import type { CustomsDeclaration } from '../../carriers/adapter';
import type { ShipmentRecord } from '../shipments/repository';
import { hsDigits } from './declaration';
import { territoryOf } from './territory';

/** An HS code has 6 digits worldwide; national tariffs add up to 4 more. */
const HS_CODE = /^\d{6,10}$/;

const present = (value: string | null | undefined): boolean => typeof value === 'string' && value.trim() !== '';

export function customsProblems(record: ShipmentRecord, declaration: CustomsDeclaration): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const lineCount = record.parcels.reduce((sum, parcel) => sum + parcel.lines.length, 0);
  if (lineCount === 0) {
    problems.push({ path: 'parcels', message: 'at least one order line saying what is in the parcels (customs declares every line of an export)' });
  }
  record.parcels.forEach((parcel, p) => {
    parcel.lines.forEach((line, l) => {
      const path = `parcels.${p}.orderLines.${l}`;
      const which = `line ${l + 1} (${line.sku}) of parcel ${p + 1}`;
      if (!present(line.description)) problems.push({ path: `${path}.description`, message: `a description of the goods on ${which}` });
      if (!present(line.tarrifNumber)) problems.push({ path: `${path}.tarrifNumber`, message: `an HS code (tariff number, 6 to 10 digits) on ${which}` });
      else if (!HS_CODE.test(hsDigits(line.tarrifNumber))) {
        problems.push({ path: `${path}.tarrifNumber`, message: `an HS code of 6 to 10 digits on ${which}: "${line.tarrifNumber}" is not one` });
      }
      if (!present(line.countryOfOrigin)) problems.push({ path: `${path}.countryOfOrigin`, message: `a country of origin on ${which}` });
      if (!(line.unitPrice !== null && line.unitPrice > 0)) problems.push({ path: `${path}.unitPrice`, message: `a unit price above 0 on ${which}` });
      if (!present(line.currency)) problems.push({ path: `${path}.currency`, message: `a currency on ${which}` });
      if (!(line.unitWeightKg !== null && line.unitWeightKg > 0)) {
        problems.push({ path: `${path}.weight`, message: `a net weight per unit on ${which}` });
      }
    });
  });
  const currencies = [...new Set(declaration.lines.map((line) => line.currency).filter((currency) => currency !== ''))];
  if (currencies.length > 1) {
    problems.push({ path: 'parcels', message: `one currency for every line of the customs declaration (the lines have ${currencies.join(' and ')})` });
  }
  const sender = record.parties.find((party) => party.type === 'sender');
  // EU customs law asks every exporter for an EORI number; outside the EU the carrier's own rules apply.
  if (sender && territoryOf(sender).id === 'EU' && declaration.exporter.eoriNumber === null) {
    problems.push({
      path: 'eoriNumber',
      message: "the exporter's EORI number (set it in the organization settings, or as eoriNumber in the sender address's customs)",
    });
  }
  return problems;
}
