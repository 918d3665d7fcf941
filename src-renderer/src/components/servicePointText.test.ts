import { describe, expect, it } from 'vitest';
import { compactOpeningHours, formatDistance, pointAddress } from './servicePointText';

const open = (day: string, from: string, to: string) => ({ day, open: from, close: to });

describe('service point text', () => {
  it('puts the address on one line', () => {
    expect(pointAddress({ address1: 'Nørregade 20', postalCode: '1165', city: 'København K' })).toBe('Nørregade 20, 1165 København K');
    expect(pointAddress({ address1: '', postalCode: '1165', city: 'København K' })).toBe('1165 København K');
  });

  it('gives the distance in metres near by, in kilometres further off', () => {
    expect(formatDistance(349.6)).toBe('350 m');
    expect(formatDistance(1234)).toBe('1.2 km');
    expect(formatDistance(14_400)).toBe('14 km');
    expect(formatDistance(null)).toBe('');
  });

  it('joins days in a row with the same hours and leaves closed days out', () => {
    const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((day) => open(day, '08:00', '20:00'));
    expect(compactOpeningHours([...weekdays, open('saturday', '10:00', '16:00')])).toBe('Mon–Fri 08:00–20:00, Sat 10:00–16:00');
    expect(compactOpeningHours([open('sunday', '10:00', '14:00'), open('monday', '09:00', '17:00'), open('wednesday', '09:00', '17:00')])).toBe(
      'Mon 09:00–17:00, Wed 09:00–17:00, Sun 10:00–14:00',
    );
  });

  it('lists both openings of a day with a break, and says nothing without hours', () => {
    expect(compactOpeningHours([open('Monday', '13:00', '18:00'), open('Monday', '08:00', '12:00'), open('tuesday', '08:00', '12:00')])).toBe(
      'Mon 08:00–12:00, 13:00–18:00, Tue 08:00–12:00',
    );
    expect(compactOpeningHours([])).toBe('');
  });
});
