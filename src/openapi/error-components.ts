// One component per error code (`{ code, message }` plus the members that code carries) and one per envelope
// (`{ "error": ... }`), shared by every operation that answers the code, and the fault-rule envelope.
import * as z from 'zod';
import { ERROR_CODE_DOCS, type ErrorCodeDoc } from './error-codes.js';
import { envelopeComponentName, errorComponentName } from './operation.js';

/** The envelope a fault rule's `status` action answers with: the rule's own code, or the status's default. */
export const injectedFaultSchema = z
  .strictObject({
    error: z.strictObject({
      code: z.string().regex(/^[a-z][a-z0-9_]{1,63}$/),
      message: z.string(),
      retry_after_seconds: z.int().min(0).optional(),
    }),
  })
  .meta({
    description:
      'An error injected by a fault rule (the answer carries `X-Emulator-Fault`). Its `code` may be any code, so it ' +
      "may lack the members the service's own answer with that code carries.",
  });

export function errorSchemas(
  docs: Readonly<Record<string, ErrorCodeDoc>> = ERROR_CODE_DOCS,
): Record<string, z.ZodType> {
  const perCode = Object.entries(docs).flatMap(([code, doc]): [string, z.ZodType][] => {
    const error = z
      .strictObject({
        code: z.literal(code),
        message: z.string().meta({ description: 'What happened and what to do next.' }),
        ...(doc.details ?? {}),
      })
      .meta({ description: doc.description });
    const envelope = z.strictObject({ error }).meta({ description: `An answer with the code \`${code}\`.` });
    return [
      [errorComponentName(code), error],
      [envelopeComponentName(code), envelope],
    ];
  });
  return Object.fromEntries([['InjectedFault', injectedFaultSchema], ...perCode]);
}
