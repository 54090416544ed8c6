// Answers of the control plane (/_emulator/*) as zod schemas, mirroring emulation/views.ts; bodies are emulation/inputs.ts.
// Each named one (`.meta({ id })`) is a component of /openapi.json, which every answer holding it refers to.
import * as z from 'zod';
import { domainSnapshotSchema } from '../../domain/state-snapshot.js';
import { TIMING_PROFILES } from '../../domain/timing.js';
import { dateTime, generationSchema } from '../../openapi/response-schemas.js';

const timingProfile = z.enum(TIMING_PROFILES);
const timingMembers = { profile: timingProfile, by_model: z.record(z.string(), timingProfile) };
export const count = () => z.int().min(0);

const rendererInfoSchema = z.strictObject({
  mode: z.enum(['ffmpeg', 'fixture', 'webcodecs']),
  source: z.enum(['FFMPEG_PATH', 'PATH', 'ffmpeg-static', '@ffmpeg-installer/ffmpeg']).optional(),
  binary: z.string().optional(),
  version: z.string().optional(),
  warning: z.string().optional(),
  max_parallel: z.int().min(1),
});

export const clockSchema = z
  .strictObject({ now: dateTime(), frozen: z.boolean() })
  .meta({ id: 'Clock', description: 'The emulator clock (ISO 8601, UTC).' });

export const healthSchema = z
  .strictObject({
    status: z
      .enum(['ok', 'starting'])
      .meta({ description: '`starting` until the renderer has found ffmpeg or fallen back to fixtures.' }),
    version: z.string(),
    renderer: rendererInfoSchema.nullable(),
    timing: z.strictObject(timingMembers),
    clock: clockSchema,
    generations: count(),
  })
  .meta({ id: 'Health', description: 'Readiness, for Docker health checks and tests. Never needs the admin token.' });

export const okSchema = z.strictObject({ ok: z.literal(true) }).meta({ id: 'Ok' });
/** The `Ok` answer, once `work` is done. */
export const okAfter = async (work: unknown) => {
  await work;
  return { ok: true as const };
};

export const accountSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    balance: z.int(),
    funding: z
      .int()
      .meta({ description: 'Net of every funding entry: the seed grant, top-ups and balance adjustments.' }),
  })
  .meta({ id: 'Account' });

export const balanceSchema = z.strictObject({ account_id: z.string(), balance: z.int() }).meta({ id: 'Balance' });

export const keySchema = z
  .strictObject({
    id: z.int(),
    secret: z.string(),
    account_id: z.string(),
    name: z.string(),
    model_scope: z.string().nullable(),
    daily_credit_limit: z.int().min(0).nullable(),
    revoked_at: dateTime().nullable(),
    created_at: dateTime(),
  })
  .meta({ id: 'Key' });

/** Named twice, as the answer of an advance (`Advance`) and of an advance to the next move (`AdvanceToNext`). */
export const advanceSchema = clockSchema.extend({
  transitions: count().meta({ description: 'Status moves the advance caused (pending -> completed counts two).' }),
});

export const timingSchema = z.strictObject(timingMembers).meta({ id: 'Timing' });

export const adminGenerationSchema = generationSchema
  .extend({ account_id: z.string() })
  .meta({ id: 'AdminGeneration', description: 'The public record plus the owning account.' });

export const ledgerEntrySchema = z
  .strictObject({
    id: z.string(),
    seq: z.int().min(1),
    type: z.enum(['funding', 'charge', 'refund']),
    account_id: z.string(),
    amount: z
      .int()
      .meta({ description: 'Credits; the type gives the sign (a funding entry that lowers a balance is negative).' }),
    at: dateTime(),
    generation_id: z.string().nullable(),
    key_id: z.int().nullable(),
    model_slug: z.string().nullable(),
    note: z.string().nullable(),
  })
  .meta({ id: 'LedgerEntry' });

export const journalEntrySchema = z
  .strictObject({
    id: z.int(),
    at: dateTime(),
    method: z.string(),
    path: z.string(),
    key_id: z.int().nullable(),
    idempotency_key: z.string().nullable(),
    status: z.int().min(0).meta({ description: '0 when no HTTP answer was produced (reset, empty, hang).' }),
    latency_ms: z.number().min(0),
    fault_id: z.string().nullable(),
    query: z.string().meta({ description: 'The query string as sent, without `?`.' }),
    fault_reason: z
      .string()
      .nullable()
      .meta({ description: 'Why the fault rule matched: its matchers and counters, in words.' }),
    generation_id: z.string().nullable().meta({ description: 'The generation a submission created or replayed.' }),
  })
  .meta({ id: 'JournalEntry' });

/** How often a rule matched and fired, and what it has left (views.ts `counters`). */
const counterShape = { matched: count(), fired: count(), remaining: count().nullable(), spent: z.boolean() };

/** Counters every fault rule carries in an answer, after the rule as it was given. */
export const faultStateShape = {
  id: z.string(),
  enabled: z.boolean(),
  source: z.string().meta({ description: '`api`, or `scenario:<name>` for rules a scenario installed.' }),
  created_at: dateTime(),
  ...counterShape,
  remaining: count().nullable().meta({ description: 'Firings left when the rule has `times`; null otherwise.' }),
};

export const scenarioProgressSchema = z
  .strictObject({
    name: z.string(),
    description: z.string().nullable(),
    expect: z.string().nullable(),
    loaded_at: dateTime(),
    steps: z.strictObject({ total: count(), run: count() }),
    faults: z.array(
      z.strictObject({
        id: z.string(),
        description: z.string().nullable(),
        action: z.string(),
        enabled: z.boolean(),
        ...counterShape,
      }),
    ),
    complete: z
      .boolean()
      .meta({ description: 'Every rule with `times` has fired them all (false when no rule has `times`).' }),
  })
  .meta({ id: 'ScenarioProgress' });

export const stateSchema = z
  .strictObject({
    format: z.literal('media-gen-emulator-state'),
    version: z.literal(1),
    emulator_version: z.string(),
    // Checked on import (state-envelope.ts) as the document says it: RFC 3339, as an export writes it.
    exported_at: z.iso.datetime({ offset: true }),
    // The schema an import is checked with, so the document refuses what the server refuses.
    domain: domainSnapshotSchema.meta({
      description: 'Accounts, keys, ledger, generations, idempotency records and uploads (base64).',
    }),
    // The plane's kept sections: each item is checked as the emulator keeps it (a rule as POST /_emulator/faults
    // checks it, a journal entry, the scenario in force), which this schema leaves open.
    control: z
      .strictObject({
        faults: z.array(z.record(z.string(), z.unknown())),
        journal: z.strictObject({ seq: count(), entries: z.array(z.record(z.string(), z.unknown())) }),
        // Absent in a hand-made state: no scenario in force.
        scenario: z.record(z.string(), z.unknown()).nullable().optional(),
        // Absent in a hand-made state or one exported before the plane kept them: no link scripted.
        links: z.array(z.record(z.string(), z.unknown())).optional(),
      })
      .meta({
        description:
          'What the control plane keeps: fault rules, the journal, the scenario in force and the scripted output links (expired, missing, expired up to a moment), each checked on import as the emulator keeps it.',
      }),
  })
  .meta({
    id: 'State',
    // PUT takes back what GET gave: the body is documented as the export is.
    io: 'output',
    description:
      'The whole state, as GET /_emulator/state exports it and PUT imports it (output files are not included).',
  });
