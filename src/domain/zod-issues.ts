// Turns zod issues into messages that name the field, e.g. `rules[0].action.status: must be between 400 and 599`.
import type * as z from 'zod';
import { formatPath } from './catalogue.js';

export interface FieldProblem {
  field: string;
  message: string;
}

function messageOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.message.includes('received undefined')) return 'is required';
  if (issue.code === 'unrecognized_keys')
    return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  return issue.message.replace(/^Invalid input: /, '');
}

/** One problem per issue, with the path written as in JavaScript under `root` (e.g. `steps[2].balance`). */
export function fieldProblems(issues: readonly z.core.$ZodIssue[], root: PropertyKey[] = []): FieldProblem[] {
  return issues.map((issue) => ({ field: formatPath([...root, ...issue.path]), message: messageOf(issue) }));
}

/** Problems found inside `field` (`steps[2]`), named from the outer document: a problem of the whole is the field's. */
export const nestProblems = (field: string, problems: readonly FieldProblem[]): FieldProblem[] =>
  problems.map((p) => ({ field: p.field === '(root)' ? field : `${field}.${p.field}`, message: p.message }));

export function describeProblems(problems: FieldProblem[]): string {
  return problems.map((p) => `${p.field}: ${p.message}`).join('; ');
}
