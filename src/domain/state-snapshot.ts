// Export of the whole domain state to plain JSON and import into a blank context: accounts, keys, ledger, generations, uploads, idempotency, clock.
import * as z from 'zod';
import type { IdGenerator, IdPrefix } from '../infra/ids.js';
import type { DomainContext } from './context.js';
import { DomainError } from './errors.js';
import { GENERATION_STATUSES, isFinal } from './generation.js';
import { TIMING_PROFILES } from './timing.js';
import type { DomainSnapshot } from './domain-snapshot.js';
import { checkInvariants } from './state-invariants.js';
import { describeProblems, fieldProblems } from './zod-issues.js';

export type { DomainSnapshot } from './domain-snapshot.js';

const ms = z.number().finite();
const profile = z.enum(TIMING_PROFILES);

/** Checks the members import relies on, so a hand-edited file fails with a message instead of a crash. */
export const domainSnapshotSchema = z.looseObject({
  clock: z.looseObject({ now: ms, frozen: z.boolean(), offset_ms: ms.default(0) }),
  timing: z.looseObject({ profile, byModel: z.record(z.string(), profile) }),
  accounts: z.array(z.looseObject({ id: z.string(), name: z.string(), createdAt: ms })),
  keys: z.array(
    z.looseObject({
      id: z.int().positive(),
      secret: z.string(),
      accountId: z.string(),
      name: z.string(),
      createdAt: ms,
    }),
  ),
  ledger: z.array(
    z.looseObject({ type: z.enum(['funding', 'charge', 'refund']), accountId: z.string(), amount: z.int(), at: ms }),
  ),
  generations: z.array(
    z.looseObject({
      id: z.string(),
      seq: z.int(),
      accountId: z.string(),
      status: z.enum(GENERATION_STATUSES),
      plan: z.looseObject({}),
    }),
  ),
  uploads: z.array(
    z.looseObject({ id: z.string().regex(/^[A-Za-z0-9_-]+$/), accountId: z.string(), data: z.string().optional() }),
  ),
  idempotency: z.array(
    z.tuple([z.string(), z.looseObject({ fingerprint: z.string(), createdAt: ms, generationId: z.string() })]),
  ),
  balances: z.record(z.string(), z.int()).optional(),
});

export function exportDomain(ctx: DomainContext): DomainSnapshot {
  const now = ctx.clock.now();
  return structuredClone({
    clock: { now, frozen: ctx.clock.frozen, offset_ms: ctx.clock.frozen ? 0 : now - Date.now() },
    timing: ctx.settings.timing,
    accounts: ctx.accounts.listAccounts(),
    keys: ctx.accounts.listKeys(),
    ledger: ctx.ledger.list(),
    generations: [...ctx.generations.all()],
    uploads: [...ctx.uploads.all()],
    idempotency: ctx.idempotency.snapshot(),
    balances: Object.fromEntries(ctx.accounts.listAccounts().map((a) => [a.id, ctx.ledger.balance(a.id)])),
  }) as DomainSnapshot;
}

export function parseDomainSnapshot(input: unknown): DomainSnapshot {
  const result = domainSnapshotSchema.safeParse(input);
  if (!result.success)
    throw new DomainError(
      'invalid_state',
      `The state is not an export of this emulator: ${describeProblems(fieldProblems(result.error.issues, ['domain']))}.`,
    );
  const snapshot = result.data as unknown as DomainSnapshot;
  checkInvariants(snapshot);
  return snapshot;
}

/** Sequential ids (with a seed) must continue after the imported ones, not collide with them. */
function advancePast(ids: IdGenerator, prefix: IdPrefix, existing: Iterable<string>) {
  const pattern = new RegExp(`^${prefix}_(\\d+)$`);
  let max = 0;
  for (const id of existing) max = Math.max(max, Number(pattern.exec(id)?.[1] ?? 0));
  for (let i = 0; i < max; i++) {
    const n = pattern.exec(ids.next(prefix))?.[1];
    if (n === undefined || Number(n) >= max) return;
  }
}

/**
 * Fills a blank context (no seeded account, key or balance). Ledger entries are appended again, so balances and
 * totals are recomputed from them. Generations still in flight start over from their state's beginning: a running
 * one goes back to pending, because the renders and timers of the exporting process are gone.
 */
export function importDomain(ctx: DomainContext, s: DomainSnapshot) {
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
  for (const a of s.accounts) ctx.accounts.createAccount(a.id, a.name, a.createdAt);
  for (const k of s.keys) {
    ctx.accounts.createKey(
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
    if (k.revokedAt !== null) ctx.accounts.revokeKey(k.id, k.revokedAt);
  }
  const maxKey = Math.max(0, ...s.keys.map((k) => k.id));
  while (maxKey > 0 && ctx.ids.nextInt('api_key') < maxKey);
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
  const maxSeq = Math.max(0, ...generations.map((g) => g.seq));
  while (maxSeq > 0 && ctx.generations.nextSeq() < maxSeq);
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
  for (const g of generations) {
    if (isFinal(g.status)) continue;
    g.status = 'pending';
    g.startedAt = null;
    ctx.lifecycle.begin(g);
  }
}
