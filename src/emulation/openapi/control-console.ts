// Answers of the views the console reads (summary, catalogue, generation detail, journal entry), as zod schemas.
import * as z from 'zod';
import {
  count,
  accountSchema,
  adminGenerationSchema,
  clockSchema,
  journalEntrySchema,
  keySchema,
  ledgerEntrySchema,
  scenarioProgressSchema,
} from './control-schemas.js';
import { dateTime } from '../../openapi/response-schemas.js';
import { GENERATION_STATUSES } from '../../domain/generation.js';

const status = z.enum(GENERATION_STATUSES);

const capturedBody = z
  .strictObject({
    content_type: z.string().nullable(),
    bytes: count().meta({ description: 'Size of the whole body.' }),
    text: z.string().meta({ description: 'The first 4096 bytes as UTF-8.' }),
    truncated: z.boolean(),
  })
  .nullable()
  .meta({ description: 'Null when there was no body, or for entries older than the newest 500.' });

const upcomingMove = z.strictObject({
  generation_id: z.string(),
  model_slug: z.string(),
  status,
  at: dateTime(),
});

export const summarySchema = z
  .strictObject({
    emulator: z.strictObject({
      version: z.string(),
      renderer: z.string().meta({ description: '`ffmpeg`, `fixture`, or `starting`.' }),
      timing: z.string(),
      magic_prompts: z.boolean(),
    }),
    clock: clockSchema.extend({
      moved: z.boolean().meta({ description: 'The reading differs from real time (frozen, advanced or set).' }),
    }),
    accounts: z.array(accountSchema),
    keys: z.array(keySchema),
    faults: z.array(z.record(z.string(), z.unknown())).meta({ description: 'As GET /_emulator/faults answers.' }),
    scenario: scenarioProgressSchema.nullable(),
    generations: z.strictObject({
      items: z.array(
        adminGenerationSchema.extend({
          output_state: z
            .enum(['ok', 'expired', 'missing'])
            .nullable()
            .meta({ description: 'What the output links answer now; null without outputs.' }),
        }),
      ),
      total: count().meta({ description: 'Generations matching the filters.' }),
      offset: count(),
      limit: z.int().min(1),
      counts: z.strictObject({ pending: count(), running: count(), completed: count(), failed: count() }),
      all: count().meta({ description: 'Every generation, unfiltered.' }),
    }),
    upcoming: z.array(upcomingMove).meta({ description: 'The next five scheduled moves, soonest first.' }),
    journal: z.strictObject({ entries: z.array(journalEntrySchema), size: count() }),
  })
  .meta({ id: 'Summary', description: 'Everything the console shows, in one answer: one request per refresh.' });

export const detailSchema = z
  .strictObject({
    generation: adminGenerationSchema,
    timeline: z.array(z.strictObject({ status, at: dateTime() })),
    next: z
      .strictObject({ status, at: dateTime(), manual_only: z.boolean() })
      .nullable()
      .meta({ description: 'The move scheduled next; null when final or stalled.' }),
    plan: z.strictObject({
      stall: z.boolean(),
      output_urls: z.enum(['valid', 'expired', 'expired-once', 'missing']),
      fail: z.strictObject({ code: z.string(), at: z.enum(['pending', 'running']), after_ms: count() }).nullable(),
    }),
    ledger: z.array(ledgerEntrySchema),
    links: z.array(
      z.strictObject({
        index: count(),
        url: z.string(),
        expires_at: dateTime(),
        state: z.enum(['ok', 'expired', 'missing']).meta({ description: 'What fetching the link would answer now.' }),
      }),
    ),
    request: journalEntrySchema
      .nullable()
      .meta({ description: 'The journal entry of the submission that created it.' }),
  })
  .meta({ id: 'GenerationDetail' });

export const catalogueSchema = z
  .strictObject({
    models: z.array(z.strictObject({ slug: z.string(), name: z.string(), kind: z.string() })),
    failure_codes: z.array(z.strictObject({ code: z.string(), message: z.string() })),
    fault_actions: z.strictObject({ http: z.array(z.string()), generation: z.array(z.string()) }),
    markers: z.array(z.strictObject({ marker: z.string(), effect: z.string() })),
    scenarios: z.array(
      z.strictObject({
        name: z.string(),
        description: z.string().nullable(),
        expect: z.string().nullable(),
        steps: z.array(z.record(z.string(), z.unknown())),
        faults: z.array(z.record(z.string(), z.unknown())),
      }),
    ),
  })
  .meta({ id: 'Catalogue' });

export const journalEntryEnvelopeSchema = z
  .strictObject({ entry: journalEntrySchema.extend({ request_body: capturedBody, response_body: capturedBody }) })
  .meta({ id: 'JournalEntryEnvelope' });
