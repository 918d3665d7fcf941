import { describe, expect, it } from 'vitest';
import { countries, countryLabel, findCountries, resolveCountry, searchable } from './countrySearch';
import { countryCodes } from '../../../src-shared/schemas/common';

const codes = (text: string, options?: { everyCountry?: boolean }) => findCountries(text, options).map((country) => country.code);

describe('finding a country by what was typed', () => {
  it('knows every valid code, and only those', () => {
    expect(countries.map((country) => country.code).sort()).toEqual([...countryCodes].sort());
  });

  it('finds Denmark by its English or Danish name and by its code, in any case', () => {
    for (const text of ['Denmark', 'denmark', 'danmark', 'DANMARK', 'dk', 'DK', ' Dk ']) expect(resolveCountry(text)).toBe('DK');
    expect(resolveCountry('Tyskland')).toBe('DE');
    expect(resolveCountry('Sweden')).toBe('SE');
    expect(resolveCountry('sverige')).toBe('SE');
  });

  it('never turns a text that could be several countries into one', () => {
    // The bug of issue 17: "De" (the start of Denmark) was saved as Germany.
    expect(codes('De').slice(0, 2)).toEqual(['DE', 'DK']);
    expect(resolveCountry('De')).toBeNull();
    expect(resolveCountry('Sw')).toBeNull();
    expect(resolveCountry('Niger')).toBeNull(); // Nigeria too
    expect(codes('Niger')[0]).toBe('NE');
  });

  it('refuses a text that names no country', () => {
    expect(findCountries('Denmrk')).toEqual([]);
    expect(resolveCountry('Denmrk')).toBeNull();
    expect(resolveCountry('XX')).toBeNull();
    expect(resolveCountry('')).toBeNull();
    expect(resolveCountry('   ')).toBeNull();
  });

  it('lists the code first, then whole names, then names that start so, then later words', () => {
    expect(codes('se')[0]).toBe('SE');
    expect(codes('Sudan')).toEqual(['SD', 'SS']);
    expect(findCountries('Tyskland')[0]).toMatchObject({ code: 'DE', english: 'Germany', matchedDanish: true });
    expect(findCountries('Germany')[0]?.matchedDanish).toBe(false);
  });

  it('reads accents and Nordic letters either way', () => {
    expect(searchable('  Færøerne ')).toBe('faeroerne');
    expect(resolveCountry('Færøerne')).toBe('FO');
    expect(resolveCountry('faeroerne')).toBe('FO');
    expect(codes('Åland')).toContain('AX');
  });

  it('keeps the codes people type that ISO does not have from choosing a lookalike', () => {
    expect(codes('UK')).toEqual(expect.arrayContaining(['GB', 'UA']));
    expect(resolveCountry('UK')).toBeNull();
    expect(codes('EL')[0]).toBe('GR');
    expect(resolveCountry('EL')).toBeNull();
  });

  it('offers "Every country" (*) only where it is asked for', () => {
    expect(codes('*')).toEqual([]);
    expect(resolveCountry('*', { everyCountry: true })).toBe('*');
    expect(resolveCountry('every', { everyCountry: true })).toBe('*');
    expect(resolveCountry('alle lande', { everyCountry: true })).toBe('*');
    expect(codes('', { everyCountry: true })[0]).toBe('*');
  });

  it('shows a country as its name with its code', () => {
    expect(countryLabel('DK')).toBe('Denmark (DK)');
    expect(countryLabel('*')).toBe('Every country');
    expect(countryLabel('ZZ')).toBe('ZZ');
    expect(resolveCountry(countryLabel('DK'))).toBe('DK');
    expect(resolveCountry('Germany (DE)')).toBe('DE');
  });
});
