// Reads of the public API: one generation, a page of generations, and usage. Reads change nothing.
import type { ApiKey } from './accounts.js';
import type { DomainContext } from './context.js';
import { DomainError } from './errors.js';
import type { Generation } from './generation.js';
import type { ListFilter } from './generation-source.js';
import { isoTimestamp, toPublicGeneration } from './generation-view.js';
import { utcDay } from './ledger.js';
import { issueCursor, readCursor } from './page-cursor.js';

/** The page size of a list that names no limit. */
const DEFAULT_PAGE_LIMIT = 30;

/** What the public API answers: a read that shows the outputs tells the output access (changing nothing here). */
export function publicView(
  ctx: DomainContext,
  g: Generation,
  baseUrl: string,
  credits = ctx.ledger.generationCredits(g.id),
) {
  const view = toPublicGeneration(g, credits, ctx.outputSigner(baseUrl), ctx.timestamps);
  if (g.status === 'completed') ctx.outputAccess?.shown(g);
  return view;
}

/** The same record, with no read told: for views that must not change what the app sees next. */
export function peekView(ctx: DomainContext, g: Generation, baseUrl: string) {
  return toPublicGeneration(g, ctx.ledger.generationCredits(g.id), ctx.outputSigner(baseUrl), ctx.timestamps);
}

/** Another account's generation answers exactly like a missing one, so ids cannot be probed. */
export function ownGeneration(ctx: DomainContext, key: ApiKey, id: string): Generation {
  const g = ctx.generations.get(id);
  if (!g || g.accountId !== key.accountId)
    throw new DomainError(
      'generation_not_found',
      `Generation '${id}' does not exist for this account. Use the id from the submission response.`,
    );
  return g;
}

export function listGenerations(
  ctx: DomainContext,
  key: ApiKey,
  baseUrl: string,
  filter: ListFilter,
  limit = DEFAULT_PAGE_LIMIT,
  cursor?: string,
) {
  const scope = { accountId: key.accountId, filter };
  const before = cursor === undefined ? undefined : readCursor(ctx.cursorTags, scope, cursor);
  const page = ctx.generations.page(key.accountId, filter, limit, before);
  const credits = ctx.ledger.creditsOf(page.items.map((g) => g.id));
  return {
    generations: page.items.map((g) => publicView(ctx, g, baseUrl, credits.get(g.id))),
    next_cursor: page.nextBefore === null ? null : issueCursor(ctx.cursorTags, scope, page.nextBefore),
    has_more: page.nextBefore !== null,
    limit,
  };
}

export function usageFor(ctx: DomainContext, key: ApiKey) {
  const now = ctx.clock.now();
  const today = ctx.ledger.accountOnDay(key.accountId, now);
  const models = [...ctx.ledger.modelTotals(key.accountId)].map(([slug, t]) => ({
    model_slug: slug,
    generations: t.generations,
    charged_credits: t.charged,
    refunded_credits: t.refunded,
    net_credits: t.charged - t.refunded,
  }));
  const usedToday = ctx.ledger.keyNetOnDay(key.id, now);
  return {
    account_id: key.accountId,
    wallet_balance: ctx.ledger.balance(key.accountId),
    today: {
      date: new Date(utcDay(now) * 86_400_000).toISOString().slice(0, 10),
      charged_credits: today.charged,
      refunded_credits: today.refunded,
      net_credits: today.charged - today.refunded,
    },
    models,
    key: {
      id: key.id,
      name: key.name,
      model_scope: key.modelScope,
      daily_credit_limit: key.dailyCreditLimit,
      used_today: usedToday,
      remaining_today: key.dailyCreditLimit === null ? null : Math.max(0, key.dailyCreditLimit - usedToday),
    },
    as_of: isoTimestamp(now),
  };
}
