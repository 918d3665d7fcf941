import { expect, it } from 'vitest';
import { fieldNotes } from './fieldNotes';

it('says a hint once: left out when the error repeats it, kept beside any other error', () => {
  expect(fieldNotes({ hint: 'At least 8 characters', error: 'At least 8 characters' })).toEqual({
    hint: undefined,
    warning: undefined,
    error: 'At least 8 characters',
  });
  expect(fieldNotes({ hint: 'At least 8 characters', error: 'at least 8 characters ' }).hint).toBeUndefined();
  expect(fieldNotes({ hint: 'At least 8 characters', error: 'Required' })).toEqual({ hint: 'At least 8 characters', warning: undefined, error: 'Required' });
  expect(fieldNotes({ hint: 'At least 8 characters' })).toEqual({ hint: 'At least 8 characters', warning: undefined, error: undefined });
  expect(fieldNotes({ warning: 'Check the weight', error: 'Check the weight' }).warning).toBeUndefined();
});
