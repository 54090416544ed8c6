// Export of the whole domain state to plain JSON and import into a blank context: accounts, keys, ledger, generations, uploads, idempotency, clock.
import * as z from 'zod';
import type { IdGenerator, IdPrefix } from '../infra/ids.js';
import { ACCOUNT_ID_PATTERN, KEY_SHAPE, KEY_SHAPE_RULE } from './accounts.js';
import type { DomainContext } from './context.js';
import { MAX_COUNTER } from './counters.js';
import { LAST_INSTANT_MS } from './durations.js';
import { GENERATION_STATUSES, type Generation, isFinal } from './generation.js';
import { TIMING_PROFILES } from './timing.js';
import type { DomainSnapshot } from './domain-snapshot.js';
import type { RestoreOrigin } from './runtime.js';
import { checkInvariants } from './state-invariants.js';
import { notAnExport } from './state-problems.js';
import { accountIdProblems, countProblems, duplicateProblems, headroomProblems } from './state-records.js';
import { fieldProblems } from './zod-issues.js';

export type { DomainSnapshot } from './domain-snapshot.js';

const profile = z.enum(TIMING_PROFILES);

export { MAX_COUNTER };
/** The last millisecond of the year 9999: every date an answer formats (ISO 8601, four-digit years) stays printable. */
const MAX_TIME_MS = LAST_INSTANT_MS;

/** A moment on the emulator clock: from 1970 to 9999. */
const instant = z
  .number()
  .min(0, 'must be a time from 1970 on (ms since the epoch)')
  .max(MAX_TIME_MS, 'must be a time before the year 10000 (ms since the epoch)');
/** A span of time that, added to any instant, stays a date. */
const span = z.number().min(0).max(MAX_TIME_MS);
const counter = z.int().min(0).max(MAX_COUNTER);
/** Credits: every sum the ledger makes of them stays exact (checkInvariants bounds the running balances too). */
const credits = z.int();

/** A seeded id (`gen_000042`) continues the sequence on import, so its number is a counter like any other. */
const recordId = z.string().refine((id) => {
  const digits = /^[a-z]+_(\d+)$/.exec(id)?.[1];
  return digits === undefined || Number(digits) <= MAX_COUNTER;
}, `a sequential id's number must be at most ${MAX_COUNTER}`);

/** Checks the members import relies on, so a hand-edited file fails with a message instead of a crash or a hang. */
export const domainSnapshotSchema = z.looseObject({
  clock: z.looseObject({
    now: instant,
    frozen: z.boolean(),
    offset_ms: z.number().min(-MAX_TIME_MS).max(MAX_TIME_MS).default(0),
  }),
  timing: z.looseObject({ profile, byModel: z.record(z.string(), profile) }),
  // Ids are checked on an import only (accountIdProblems): an older emulator's store may hold ids today's rule refuses.
  accounts: z.array(
    z.looseObject({ id: z.string().meta({ pattern: ACCOUNT_ID_PATTERN }), name: z.string(), createdAt: instant }),
  ),
  keys: z.array(
    z.looseObject({
      id: z.int().positive().max(MAX_COUNTER),
      secret: z.string().regex(KEY_SHAPE, KEY_SHAPE_RULE),
      accountId: z.string(),
      name: z.string(),
      createdAt: instant,
      revokedAt: instant.nullable().optional(),
      dailyCreditLimit: credits.min(0).nullable().optional(),
    }),
  ),
  ledger: z.array(
    z.looseObject({
      id: z.string().optional(),
      type: z.enum(['funding', 'charge', 'refund']),
      accountId: z.string(),
      amount: credits,
      at: instant,
      keyId: z.int().positive().max(MAX_COUNTER).nullable().optional(),
    }),
  ),
  generations: z.array(
    z.looseObject({
      id: recordId,
      requestId: recordId.optional(),
      seq: counter,
      accountId: z.string(),
      apiKeyId: z.int().positive().max(MAX_COUNTER).optional(),
      status: z.enum(GENERATION_STATUSES),
      createdAt: instant.optional(),
      startedAt: instant.nullable().optional(),
      completedAt: instant.nullable().optional(),
      plan: z.looseObject({
        pendingMs: span.optional(),
        runningMs: span.optional(),
        fail: z.looseObject({ afterMs: span.optional() }).optional(),
      }),
      outputs: z.array(z.looseObject({ index: counter, bytes: z.int().min(0).optional() })).optional(),
    }),
  ),
  uploads: z.array(
    z.looseObject({
      id: recordId.pipe(z.string().regex(/^[A-Za-z0-9_-]+$/)),
      accountId: z.string(),
      width: counter.optional(),
      height: counter.optional(),
      bytes: z.int().min(0).optional(),
      createdAt: instant.optional(),
      data: z.string().optional(),
    }),
  ),
  idempotency: z.array(
    z.tuple([z.string(), z.looseObject({ fingerprint: z.string(), createdAt: instant, generationId: z.string() })]),
  ),
  balances: z.record(z.string(), credits).optional(),
});

export function exportDomain(ctx: DomainContext): DomainSnapshot {
  const now = ctx.clock.now();
  return structuredClone({
    clock: { now, frozen: ctx.clock.frozen, offset_ms: ctx.clock.frozen ? 0 : now - Date.now() },
    timing: ctx.settings.timing,
    accounts: ctx.accounts.listAccounts(),
    keys: ctx.accounts.listKeys(),
    ledger: ctx.ledger.list(),
    generations: ctx.generations.all(),
    uploads: [...ctx.uploads.all()],
    idempotency: ctx.idempotency.snapshot(),
    balances: Object.fromEntries(ctx.accounts.listAccounts().map((a) => [a.id, ctx.ledger.balance(a.id)])),
  }) as DomainSnapshot;
}

/** `origin` 'store': the store of record's own state, which may hold more keys or accounts than an import may bring. */
export function parseDomainSnapshot(input: unknown, origin: RestoreOrigin = 'import'): DomainSnapshot {
  const counts = countProblems(input, origin);
  if (counts.length > 0) throw notAnExport(counts);
  const result = domainSnapshotSchema.safeParse(input);
  if (!result.success) throw notAnExport(fieldProblems(result.error.issues, ['domain']));
  const snapshot = result.data as unknown as DomainSnapshot;
  // A running clock resumes at wall time plus the offset: that moment must be a date too. Past 9999 it may be, as wall
  // time moves on from an export of a clock held at its last instant: the restored clock holds there (infra/clock.ts).
  const resumesAt = Date.now() + snapshot.clock.offset_ms;
  if (!snapshot.clock.frozen && resumesAt < 0)
    throw notAnExport([
      { field: 'domain.clock.offset_ms', message: 'puts the running clock outside the years 1970-9999' },
    ]);
  const problems = [
    ...accountIdProblems(snapshot, origin),
    ...headroomProblems(snapshot, origin),
    ...duplicateProblems(snapshot),
  ];
  if (problems.length > 0) throw notAnExport(problems);
  checkInvariants(snapshot, origin);
  return snapshot;
}

/** Sequential ids (with a seed) must continue after the imported ones, not collide with them: one jump, no loop. */
function advancePast(ids: IdGenerator, prefix: IdPrefix, existing: Iterable<string | undefined>) {
  const pattern = new RegExp(`^${prefix}_(\\d+)$`);
  let max = 0;
  for (const id of existing) max = Math.max(max, Number(pattern.exec(id ?? '')?.[1] ?? 0));
  ids.skipPast(prefix, max);
}

const largest = (values: Iterable<number>) => {
  let max = 0;
  for (const value of values) max = Math.max(max, value);
  return max;
};

/** The clock, the timing, the accounts and keys of a state: what both an import and a start from the store put back. */
export function restoreSettingsAndKeys(
  ctx: DomainContext,
  s: Pick<DomainSnapshot, 'clock' | 'timing' | 'accounts' | 'keys'>,
) {
  const { clock } = s;
  if (clock.frozen) {
    ctx.clock.freeze();
    ctx.clock.set(clock.now);
  } else {
    ctx.clock.unfreeze();
    ctx.clock.set(Date.now() + clock.offset_ms);
  }
  ctx.settings.timing.profile = s.timing.profile;
  ctx.settings.timing.byModel = { ...s.timing.byModel };
  for (const a of s.accounts) ctx.accounts.restoreAccount(a.id, a.name, a.createdAt);
  for (const k of s.keys) {
    ctx.accounts.restoreKey(
      {
        accountId: k.accountId,
        secret: k.secret,
        name: k.name,
        modelScope: k.modelScope,
        dailyCreditLimit: k.dailyCreditLimit,
      },
      k.createdAt,
      k.id,
    );
    // A file may leave revokedAt out (the schema allows it): that key is active, as one with null.
    if (k.revokedAt != null) ctx.accounts.revokeKey(k.id, k.revokedAt);
  }
  ctx.ids.skipPastInt('api_key', largest(s.keys.map((k) => k.id)));
}

/**
 * Fills a blank context (no seeded account, key or balance). Ledger entries are appended again, so balances and
 * totals are recomputed from them. Generations still in flight start over from their state's beginning: a running
 * one goes back to pending, because the renders and timers of the exporting process are gone.
 */
export function importDomain(ctx: DomainContext, s: DomainSnapshot) {
  restoreSettingsAndKeys(ctx, s);
  for (const e of s.ledger)
    ctx.ledger.append({
      type: e.type,
      accountId: e.accountId,
      amount: e.amount,
      at: e.at,
      generationId: e.generationId,
      keyId: e.keyId,
      modelSlug: e.modelSlug,
      note: e.note,
    });
  for (const { data: _inline, ...u } of s.uploads) ctx.uploads.add(u);
  const generations = [...s.generations].sort((a, b) => a.seq - b.seq);
  for (const g of generations) ctx.generations.add(g);
  ctx.generations.skipPastSeq(largest(generations.map((g) => g.seq)));
  advancePast(
    ctx.ids,
    'gen',
    generations.map((g) => g.id),
  );
  advancePast(
    ctx.ids,
    'req',
    generations.map((g) => g.requestId),
  );
  advancePast(
    ctx.ids,
    'upl',
    s.uploads.map((u) => u.id),
  );
  ctx.idempotency.restore(s.idempotency);
  restartInFlight(ctx, generations);
}

/** Generations still in flight start over from pending: the renders and timers of the process that left them are gone. */
export function restartInFlight(ctx: DomainContext, generations: Generation[]) {
  for (const g of generations) {
    if (isFinal(g.status)) continue;
    g.status = 'pending';
    g.startedAt = null;
    ctx.lifecycle.begin(g);
  }
}
