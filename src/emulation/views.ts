// How control answers look: snake_case JSON, ISO 8601 times, the same for HTTP and the in-process client.
import type * as z from 'zod';
import type * as schemas from './openapi/control-schemas.js';
import type { ApiKey } from '../domain/accounts.js';
import type { DomainContext } from '../domain/context.js';
import { FaultStore, type FaultRule } from './faults/fault-store.js';
import type { Generation } from '../domain/generation.js';
import type { CapturedBody, JournalEntry } from './journal/journal-store.js';
import type { LedgerEntry } from '../domain/ledger.js';
import { peekView } from '../domain/queries.js';
import type { ActiveScenario } from './scenarios/scenario-section.js';

export const iso = (ms: number) => new Date(ms).toISOString();

// A view whose documented schema (openapi/control-schemas.ts) gives exactly its type is typed from that schema, so the
// compiler holds it to what /openapi.json says. Fault rules, scenario progress and the console's views keep their own
// types: their documents say less (open records, `action` as any string) or, for a rule, add the defaults of its parse.
export type ClockView = z.output<typeof schemas.clockSchema>;
export const clockView = (ctx: DomainContext): ClockView => ({ now: iso(ctx.clock.now()), frozen: ctx.clock.frozen });

export const timingView = (ctx: DomainContext): z.output<typeof schemas.timingSchema> => ({
  profile: ctx.settings.timing.profile,
  by_model: { ...ctx.settings.timing.byModel },
});

export type AccountView = z.output<typeof schemas.accountSchema>;
export function accountView(ctx: DomainContext, id: string): AccountView {
  const account = ctx.accounts.account(id)!;
  return { id: account.id, name: account.name, balance: ctx.ledger.balance(id), funding: ctx.ledger.funding(id) };
}

export type KeyView = z.output<typeof schemas.keySchema>;
export const keyView = (k: ApiKey): KeyView => ({
  id: k.id,
  secret: k.secret,
  account_id: k.accountId,
  name: k.name,
  model_scope: k.modelScope,
  daily_credit_limit: k.dailyCreditLimit,
  revoked_at: k.revokedAt === null ? null : iso(k.revokedAt),
  created_at: iso(k.createdAt),
});

export const ledgerView = (e: LedgerEntry): z.output<typeof schemas.ledgerEntrySchema> => ({
  id: e.id,
  seq: e.seq,
  type: e.type,
  account_id: e.accountId,
  amount: e.amount,
  at: iso(e.at),
  generation_id: e.generationId ?? null,
  key_id: e.keyId ?? null,
  model_slug: e.modelSlug ?? null,
  note: e.note ?? null,
});

export type AdminGenerationView = z.output<typeof schemas.adminGenerationSchema>;
/** The public record plus the owning account, with output URLs signed for `baseUrl`. */
export const generationView = (ctx: DomainContext, g: Generation, baseUrl: string): AdminGenerationView => ({
  ...peekView(ctx, g, baseUrl),
  account_id: g.accountId,
});

export const journalView = (e: JournalEntry): z.output<typeof schemas.journalEntrySchema> => ({
  id: e.id,
  at: iso(e.at),
  method: e.method,
  path: e.path,
  query: e.query ?? '',
  key_id: e.keyId,
  idempotency_key: e.idempotencyKey,
  status: e.status,
  latency_ms: e.latencyMs,
  fault_id: e.faultId,
  fault_reason: e.faultReason ?? null,
  generation_id: e.generationId ?? null,
});

const bodyView = (b: CapturedBody | null | undefined) =>
  b ? { content_type: b.contentType, bytes: b.bytes, text: b.text, truncated: b.truncated } : null;

/** One entry with its bodies (null when there was none, or once the entry is older than the newest 500). */
export const journalEntryView = (e: JournalEntry) => ({
  ...journalView(e),
  request_body: bodyView(e.requestBody),
  response_body: bodyView(e.responseBody),
});

function counters(rule: FaultRule) {
  const remaining = FaultStore.remaining(rule);
  return { matched: rule.matched, fired: rule.fired, remaining, spent: remaining === 0 };
}

export const faultView = (rule: FaultRule) => ({
  ...rule.definition,
  id: rule.id,
  enabled: rule.enabled,
  source: rule.source,
  created_at: iso(rule.createdAt),
  ...counters(rule),
});

export function scenarioProgressView(active: ActiveScenario, rules: FaultRule[]) {
  const mine = active.ruleIds
    .map((id) => rules.find((r) => r.id === id))
    .filter((r): r is FaultRule => r !== undefined);
  const timed = mine.filter((r) => r.parsed.times !== null);
  return {
    name: active.definition.name,
    description: active.definition.description ?? null,
    expect: active.definition.expect ?? null,
    loaded_at: iso(active.loadedAt),
    steps: { total: active.definition.steps.length, run: active.stepsRun },
    faults: mine.map((r) => ({
      id: r.id,
      description: r.parsed.description ?? null,
      action: r.parsed.action.type,
      enabled: r.enabled,
      ...counters(r),
    })),
    complete: timed.length > 0 && timed.every((r) => FaultStore.remaining(r) === 0),
  };
}
export type ScenarioProgress = ReturnType<typeof scenarioProgressView>;
