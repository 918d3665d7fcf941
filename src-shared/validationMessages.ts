import { z } from 'zod';

/**
 * Validation messages in plain words for every door (HTTP, IPC, CLI, forms): "Required", "At most
 * 100 characters", "Must be one of: kg, g, lb, oz". Messages written on a schema still win.
 */
type Issue = Parameters<z.core.$ZodErrorMap>[0];

const noun = (origin: unknown, count: number) =>
  origin === 'string'
    ? `${count} character${count === 1 ? '' : 's'}`
    : origin === 'array' || origin === 'set'
      ? `${count} item${count === 1 ? '' : 's'}`
      : String(count);

export function plainMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'Required';
      return `Expected ${issue.expected === 'int' ? 'a whole number' : issue.expected}`;
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string' && min === 1) return 'Required';
      if (issue.origin === 'string' || issue.origin === 'array') return `At least ${noun(issue.origin, min)}`;
      return issue.inclusive === false ? `Must be more than ${min}` : `Must be at least ${min}`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string' || issue.origin === 'array') return `At most ${noun(issue.origin, max)}`;
      return issue.inclusive === false ? `Must be less than ${max}` : `Must be at most ${max}`;
    }
    case 'invalid_format':
      if (issue.format === 'email') return 'Not a valid email address';
      if (issue.format === 'url') return 'Not a valid URL';
      if (issue.format === 'date') return 'Not a valid date (YYYY-MM-DD)';
      return 'Not in the expected format';
    case 'invalid_value':
      return `Must be one of: ${issue.values.map(String).join(', ')}`;
    case 'not_multiple_of':
      return issue.divisor === 1 ? 'Must be a whole number' : `Must be a multiple of ${issue.divisor}`;
    case 'invalid_union':
      return 'Not one of the accepted forms';
    case 'unrecognized_keys': {
      // zod's own wording joins every key: 80 000 of them made a 1 MB message nobody reads.
      const shown = issue.keys
        .slice(0, 5)
        .map((key) => `"${key}"`)
        .join(', ');
      return issue.keys.length === 1 ? `Unknown field ${shown}` : `Unknown fields ${shown}${issue.keys.length > 5 ? ` and ${issue.keys.length - 5} more` : ''}`;
    }
    default:
      return undefined;
  }
}

z.config({ customError: plainMessage });
