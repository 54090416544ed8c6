// One generation in depth for the console: its timeline on the emulator clock, ledger, output links, creating request.
import type { Generation, GenerationStatus } from '../../domain/generation.js';
import { contextOf, type ControlDeps } from '../plane-state.js';
import { findGeneration, generationOf } from './generation-operations.js';
import type { OutputUrls } from './output-links.js';
import { iso, journalView, ledgerView } from '../views.js';

/** The move the plan has scheduled next, or null (final, or stalled until someone completes or fails it). */
export function nextTransition(g: Generation): { status: GenerationStatus; at: number } | null {
  const fail = g.plan.fail;
  if (g.status === 'pending')
    return fail?.at === 'pending'
      ? { status: 'failed', at: g.createdAt + fail.afterMs }
      : { status: 'running', at: g.createdAt + g.plan.pendingMs };
  if (g.status === 'running' && g.startedAt !== null) {
    if (fail?.at === 'running') return { status: 'failed', at: g.startedAt + fail.afterMs };
    return g.plan.stall ? null : { status: 'completed', at: g.startedAt + g.plan.runningMs };
  }
  return null;
}

function timeline(g: Generation) {
  const items: { status: GenerationStatus; at: string }[] = [{ status: 'pending', at: iso(g.createdAt) }];
  if (g.startedAt !== null) items.push({ status: 'running', at: iso(g.startedAt) });
  if (g.completedAt !== null && (g.status === 'completed' || g.status === 'failed'))
    items.push({ status: g.status, at: iso(g.completedAt) });
  return items;
}

/** What a fetch of an output link would answer now, so the console can badge it instead of retrying it. */
function linkState(urls: OutputUrls, expiresAt: string, now: number): 'ok' | 'expired' | 'missing' {
  if (urls === 'missing') return 'missing';
  return Date.parse(expiresAt) <= now ? 'expired' : 'ok';
}

export function generationDetail(deps: ControlDeps, id: string) {
  const g = findGeneration(deps, id);
  const ctx = contextOf(deps);
  const now = ctx.clock.now();
  const generation = generationOf(deps, g);
  const next = nextTransition(g);
  const urls = deps.state.links.urls(g.id);
  const created = deps.state.journal
    .list({ path: '/v1/media/generations', method: 'POST' })
    .find((e) => e.generationId === g.id);
  return {
    generation,
    timeline: timeline(g),
    next: next && { status: next.status, at: iso(next.at), manual_only: g.plan.manualOnly },
    plan: {
      stall: Boolean(g.plan.stall),
      output_urls: urls,
      fail: g.plan.fail ? { code: g.plan.fail.code, at: g.plan.fail.at, after_ms: g.plan.fail.afterMs } : null,
    },
    ledger: ctx.ledger.list({ generationId: g.id }).map(ledgerView),
    links: generation.outputs.map((o) => ({
      index: o.index,
      url: o.url,
      expires_at: o.expires_at,
      state: linkState(urls, o.expires_at, now),
    })),
    request: created ? journalView(created) : null,
  };
}
