// The lifecycle operations' bodies and answers (POST /_emulator/sandboxes and the rest), as zod schemas.
import * as z from 'zod';
import { dateTime } from '../../openapi/response-schemas.js';
import { timingInput } from '../inputs.js';

/** Shortest and longest idle lifetime of a sandbox: a minute to a week. */
export const MIN_TTL_SECONDS = 60;
export const MAX_TTL_SECONDS = 604_800;
/** When a creation names none. */
export const DEFAULT_TTL_SECONDS = 3600;

export const sandboxInput = z
  .strictObject({
    seed: z
      .union([z.string().min(1).max(200), z.int().min(0).max(Number.MAX_SAFE_INTEGER)])
      .optional()
      .meta({ description: 'Makes its ids, jitter and secrets repeatable; a text seed is hashed to a number.' }),
    timing: timingInput.optional().meta({ description: 'As PUT /_emulator/timing, over the instance timing.' }),
    balance: z.int().min(0).optional().meta({ description: 'Its seeded balance; default the instance one.' }),
    label: z.string().min(1).max(100).optional(),
    ttlSeconds: z
      .int()
      .min(MIN_TTL_SECONDS)
      .max(MAX_TTL_SECONDS)
      .optional()
      .meta({ description: 'Idle lifetime on real host time; default 3600.' }),
  })
  .meta({ id: 'NewSandbox' });

export type SandboxSpec = z.output<typeof sandboxInput>;
export type SandboxInput = z.input<typeof sandboxInput>;

const sandboxMembers = {
  id: z.string().meta({ description: '`sbx_...`' }),
  label: z.string().nullable(),
  apiKey: z.string().meta({ description: 'Its seeded API key: public requests bearing it act on this sandbox.' }),
  createdAt: dateTime(),
  expiresAt: dateTime().meta({ description: 'Real host time; every request it answers pushes it forward.' }),
  ttlSeconds: z.int().min(MIN_TTL_SECONDS),
};

export const sandboxSchema = z.strictObject(sandboxMembers).meta({ id: 'Sandbox' });

export const createdSandboxSchema = z
  .strictObject({
    ...sandboxMembers,
    token: z.string().meta({ description: 'Its control token (`sbt_...`): reaches this sandbox only.' }),
  })
  .meta({ id: 'CreatedSandbox' });

export const sandboxListSchema = z.strictObject({ data: z.array(sandboxSchema) }).meta({ id: 'SandboxList' });
