// One component per error code: `{ code, message }` plus the members that code carries, as zod schemas.
import { z } from 'zod';
import { ERROR_CODES } from './error-codes.js';
import { errorComponentName } from './operation.js';

export function errorSchemas(): Record<string, z.ZodType> {
  return Object.fromEntries(
    Object.entries(ERROR_CODES).map(([code, doc]) => [
      errorComponentName(code),
      z
        .strictObject({
          code: z.literal(code),
          message: z.string().meta({ description: 'What happened and what to do next.' }),
          ...(doc.details ?? {}),
        })
        .meta({ description: doc.description }),
    ]),
  );
}

/** The `{ error: { code, message } }` envelope with any code, for operations whose codes are open (faults). */
export const anyErrorEnvelope = z
  .strictObject({ error: z.looseObject({ code: z.string(), message: z.string() }) })
  .meta({ description: 'The envelope of every non-422 error.' });
