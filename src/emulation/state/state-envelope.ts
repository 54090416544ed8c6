// The envelope of a state the control plane imports: exactly the members GET /_emulator/state exports, as documented.
import * as z from 'zod';
import { invalidState } from '../../domain/state-problems.js';
import { fieldProblems } from '../../domain/zod-issues.js';
import { stateSchema } from '../openapi/control-schemas.js';

/** `domain` the store checks itself, with its own messages; `control`'s sections, each as its plugin keeps it. */
const envelope = stateSchema.extend({ domain: z.unknown() });

/**
 * Refuses a document that says it is an export of this format and version but carries a member no export has, at its
 * top or in `control`, or lacks one every export has (422 `invalid_state`, as the document's `additionalProperties:
 * false` says). Any other document goes on to the store, whose refusal says what an export is.
 */
export function checkStateEnvelope(body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const { format, version } = body as Record<string, unknown>;
  if (format !== envelope.shape.format.value || version !== envelope.shape.version.value) return;
  const parsed = envelope.safeParse(body);
  if (!parsed.success)
    throw invalidState('The state is not an export of this emulator', fieldProblems(parsed.error.issues));
}
