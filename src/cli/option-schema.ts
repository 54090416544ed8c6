// The option table as one schema: what the config file and the in-process entry points check before anything starts.
import * as z from 'zod';
import { nearest } from './nearest-name.js';
import { OPTION_TABLE } from './option-table.js';
import { spellings } from './suggest.js';

const shape = () => Object.fromEntries(OPTION_TABLE.map((entry) => [entry.key, entry.schema.optional()]));

/** Unknown keys are refused: a mistyped key would otherwise start the emulator with the default, silently. */
export const CONFIG_SCHEMA = z.strictObject(shape());

/** The in-process options: the table's, and `log`, which only a caller in the same process can give. */
export const IN_PROCESS_SCHEMA = z.object({
  ...shape(),
  log: z
    .custom<(line: string) => void>((value) => typeof value === 'function', {
      error: 'must be a function that takes one line of text',
      params: { wrongType: true },
    })
    .optional(),
});

/** What was given, short enough for one line. */
export function describeGiven(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  // JSON would print a Date as its ISO text, which reads like the value that was wanted.
  if (value instanceof Date)
    return `a Date object (give its text: ${Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString()})`;
  if (value === undefined) return 'undefined';
  const text = typeof value === 'bigint' ? `${value}n` : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

const keySpellings = () => spellings((entry) => entry.key);

/** A problem in one phrase: the key's path, what it must be, and what was given; an unknown key with the nearest one. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys')
    return issue.keys
      .map((key) => {
        const hint = nearest(key, keySpellings());
        return `unknown key "${key}"${hint ? `; did you mean "${hint}"?` : ''}`;
      })
      .join('; ');
  const path = issue.path.join('.') || '(top level)';
  const shown = 'input' in issue && !(issue.code === 'custom' && issue.params?.givenInMessage);
  const given = shown ? `, got ${describeGiven(issue.input)}` : '';
  // The table's own messages follow the name ("must be ..."); a library's ("Invalid input: ...") follows a colon.
  return /^[A-Z]/.test(issue.message) ? `${path}: ${issue.message}${given}` : `${path} ${issue.message}${given}`;
}

/** A value of a type the option never takes, rather than a value out of its range. */
export const isWrongType = (issue: z.core.$ZodIssue): boolean =>
  issue.code === 'invalid_type' ||
  issue.code === 'invalid_union' ||
  (issue.code === 'custom' && issue.params?.wrongType === true);

/** The issues of `data` against `schema`, each knowing the value it was given. */
export function optionIssues(schema: z.ZodType, data: unknown): z.core.$ZodIssue[] {
  const checked = schema.safeParse(data, { reportInput: true });
  return checked.success ? [] : checked.error.issues;
}
