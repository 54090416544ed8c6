// The refusal of an imported state: 422 invalid_state whose message and `problems` list name each bad field.
import { DomainError } from './errors.js';
import { describeProblems, type FieldProblem } from './zod-issues.js';
import { thousands } from './thousands.js';

/** A hostile document can hold a bad field per entry: the answer names the first ones and counts the rest. */
const SHOWN_PROBLEMS = 20;

/** The refusal of a document that is not an export of this emulator (or has been edited). */
export const notAnExport = (problems: FieldProblem[]) =>
  invalidState('The state is not an export of this emulator', problems);

export function invalidState(intro: string, problems: FieldProblem[]): DomainError {
  const shown = problems.slice(0, SHOWN_PROBLEMS);
  const more = problems.length - shown.length;
  const rest = more > 0 ? `; and ${thousands(more)} more` : '';
  return new DomainError('invalid_state', `${intro}: ${describeProblems(shown)}${rest}.`, { problems: shown });
}
