import { describe, expect, it } from 'vitest';
import { crossesCustomsBorder, territoryOf } from './territory';

const at = (countryCode: string, postalCode = '1000') => ({ countryCode, postalCode });
const copenhagen = at('DK', '1165');

describe('customs territory', () => {
  it.each([
    ['Denmark to Germany', at('DE', '10115'), false],
    ['Denmark to mainland Spain', at('ES', '28001'), false],
    ['Denmark to Monaco (in the EU customs territory through France)', at('MC', '98000'), false],
    ['Denmark to mainland Finland', at('FI', '00100'), false],
    ['Denmark to Norway', at('NO', '0154'), true],
    ['Denmark to Switzerland', at('CH', '8001'), true],
    ['Denmark to Liechtenstein', at('LI', '9490'), true],
    ['Denmark to the United Kingdom', at('GB', 'SW1A 1AA'), true],
    ['Denmark to Jersey', at('JE', 'JE2 3AB'), true],
    ['Denmark to Guernsey', at('GG', 'GY1 1AA'), true],
    ['Denmark to the Faroe Islands', at('FO', '100'), true],
    ['Denmark to Greenland', at('GL', '3900'), true],
    ['Denmark to Åland by its own code', at('AX', '22100'), true],
    ['Denmark to Åland by a Finnish postal code', at('FI', '22100'), true],
    ['Denmark to Las Palmas (Canary Islands, 35xxx)', at('ES', '35001'), true],
    ['Denmark to Santa Cruz de Tenerife (Canary Islands, 38xxx)', at('ES', '38001'), true],
  ])('%s: export %s', (_name, receiver, expected) => {
    expect(crossesCustomsBorder(copenhagen, receiver)).toBe(expected);
  });

  it('keeps Switzerland and Liechtenstein in one territory, and the Canary Islands in one of their own', () => {
    expect(crossesCustomsBorder(at('CH', '8001'), at('LI', '9490'))).toBe(false);
    expect(crossesCustomsBorder(at('ES', '35001'), at('ES', '38001'))).toBe(false);
    expect(territoryOf(at('ES', '35 001')).name).toBe('the Canary Islands');
    expect(territoryOf(at('FI', '22-100')).name).toBe('Åland');
  });

  it('reads lower-case and EU-style country codes', () => {
    expect(territoryOf(at('no')).id).toBe('NO');
    expect(territoryOf(at('EL', '10431')).id).toBe('EU');
    expect(crossesCustomsBorder(at('UK', 'SW1A 1AA'), at('GB', 'EC1A 1BB'))).toBe(false);
  });

  it('an export from Norway to Denmark crosses the border the other way too', () => {
    expect(crossesCustomsBorder(at('NO', '0154'), copenhagen)).toBe(true);
    expect(crossesCustomsBorder(at('NO', '0154'), at('NO', '5003'))).toBe(false);
  });
});
