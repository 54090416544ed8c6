// /_emulator/summary and /_emulator/catalogue, the views the console reads (one summary per refresh, the catalogue once),
// declared once (registry/operation.ts).
import { FAILURE_MESSAGES } from '../domain/failures.js';
import { GENERATION_ACTIONS, HTTP_ACTIONS } from './faults/fault-schema.js';
import type { Generation } from '../domain/generation.js';
import { MARKER_EXAMPLES } from './faults/magic-prompts.js';
import { VERSION } from '../version.js';
import { listAccounts, listKeys } from './admin/account-operations.js';
import { contextOf, type ControlDeps } from './plane-state.js';
import { nextTransition } from './generations/generation-detail.js';
import type { OutputUrls } from './generations/output-links.js';
import { listFaults } from './faults/fault-api.js';
import { clockView, iso, journalView } from './views.js';
import { generationOf } from './generations/generation-operations.js';
import { scenarioProgress } from './scenarios/scenario-operations.js';
import { defineOperation } from './registry/operation.js';
import { catalogueSchema, summarySchema } from './openapi/control-console.js';
import { summaryQuery } from './inputs.js';

/** What the outputs' links answer now, so the console shows a badge instead of fetching a link that cannot work. */
function outputState(g: Generation, urls: OutputUrls): 'ok' | 'expired' | 'missing' | null {
  if (g.status !== 'completed' || g.outputs.length === 0) return null;
  if (urls === 'valid') return 'ok';
  return urls === 'missing' ? 'missing' : 'expired';
}

/** The next `limit` scheduled moves of any generation, soonest first; at one instant, in the order they run (seq). */
function upcoming(deps: ControlDeps, limit = 5) {
  const moves = [];
  for (const g of contextOf(deps).generations.soonestToMove(limit)) {
    const next = nextTransition(g);
    if (next) moves.push({ g, next });
  }
  return moves
    .sort((a, b) => a.next.at - b.next.at || a.g.seq - b.g.seq)
    .slice(0, limit)
    .map(({ g, next }) => ({ generation_id: g.id, model_slug: g.modelSlug, status: next.status, at: iso(next.at) }));
}

export const SUMMARY_API = {
  summary: defineOperation({
    method: 'get',
    path: '/_emulator/summary',
    summary: 'Everything the console shows, in one answer',
    description:
      'Clock, wallets, keys, fault rules, scenario, a filtered page of generations (`status`, `model`, `q` searches id and prompt as plain text, `offset`, `limit` up to 100), the newest journal entries and the next scheduled moves.',
    query: summaryQuery,
    input: 'summary query',
    answer: summarySchema,
    handle: (deps, { query: q }) => {
      const ctx = contextOf(deps);
      const offset = q.offset ?? 0;
      const limit = q.limit ?? 25;
      // Counted and paged by the store of record's query: a refresh does not walk every generation. `q` is a plain
      // substring (no pattern) of the id or the prompt, in any case.
      const { counts, total, items } = ctx.generations.census(
        { modelSlug: q.model, text: q.q, status: q.status },
        offset,
        limit,
      );
      const renderer = deps.rendererInfo();
      return {
        emulator: {
          version: VERSION,
          renderer: renderer ? renderer.mode : 'starting',
          timing: ctx.settings.timing.profile,
          magic_prompts: deps.options.magicPrompts,
        },
        clock: { ...clockView(ctx), moved: ctx.clock.moved },
        accounts: listAccounts(deps),
        keys: listKeys(deps),
        faults: listFaults(deps),
        scenario: scenarioProgress(deps),
        generations: {
          items: items.map((g) => ({
            ...generationOf(deps, g),
            output_state: outputState(g, deps.state.links.urls(g.id)),
          })),
          total,
          offset,
          limit,
          counts,
          all: ctx.generations.size,
        },
        upcoming: upcoming(deps),
        journal: {
          entries: deps.state.journal
            .list({ limit: q.journal_limit ?? 30 })
            .map(journalView)
            .reverse(),
          size: deps.state.journal.size,
        },
      };
    },
  }),
  catalogue: defineOperation({
    method: 'get',
    path: '/_emulator/catalogue',
    summary: 'Models, failure codes, fault actions, prompt marker examples and scenarios with their steps',
    answer: catalogueSchema,
    errors: ['invalid_scenario'],
    handle: (deps) => ({
      models: contextOf(deps)
        .catalogue.list()
        .map((m) => ({ slug: m.slug, name: m.name, kind: m.kind })),
      failure_codes: Object.entries(FAILURE_MESSAGES).map(([code, message]) => ({ code, message })),
      fault_actions: { http: [...HTTP_ACTIONS], generation: [...GENERATION_ACTIONS] },
      markers: MARKER_EXAMPLES.map((m) => ({ ...m })),
      scenarios: deps.scenarios.available().map((name) => {
        const s = deps.scenarios.named(name);
        return { name, description: s.description ?? null, expect: s.expect ?? null, steps: s.steps, faults: s.faults };
      }),
    }),
  }),
};
