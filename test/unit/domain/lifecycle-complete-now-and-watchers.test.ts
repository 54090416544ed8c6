// completeNow starts a pending generation now, reuses rendered outputs, refuses a final one; watchers stop when told.
import { describe, expect, it } from 'vitest';
import type { Generation, GenerationPlan, OutputFile } from '../../../src/domain/generation.js';
import { Ledger } from '../../../src/domain/ledger.js';
import { Lifecycle, type LifecycleDeps } from '../../../src/domain/lifecycle.js';
import { createClock } from '../../../src/infra/clock.js';
import { createScheduler } from '../../../src/infra/scheduler.js';

const OUTPUT: OutputFile = { index: 0, fileKey: 'f', mimeType: 'video/mp4', format: 'mp4', bytes: 10 };

function generation(plan: Partial<GenerationPlan> = {}, id = 'gen_1'): Generation {
  return {
    seq: 1,
    id,
    accountId: 'a',
    apiKeyId: 1,
    modelSlug: 'm',
    status: 'pending',
    createdAt: 0,
    startedAt: null,
    completedAt: null,
    error: null,
    outputs: [],
    plan: { pendingMs: 100, runningMs: 200, manualOnly: false, ...plan },
  } as unknown as Generation;
}

function lifecycleWith(deps: Partial<LifecycleDeps> = {}) {
  const clock = createClock({ frozenAt: 0 });
  const scheduler = createScheduler(clock);
  let n = 0;
  const ledger = new Ledger(() => `led_${++n}`);
  let renders = 0;
  const render = async () => {
    renders += 1;
    return [{ ...OUTPUT, fileKey: `f${renders}` }];
  };
  const lifecycle = new Lifecycle({ clock, scheduler, ledger, render, ...deps });
  const begin = (g: Generation) => {
    ledger.append({ type: 'charge', accountId: 'a', amount: 10, at: 0, generationId: g.id, keyId: 1 });
    lifecycle.begin(g);
    return g;
  };
  return { clock, scheduler, ledger, lifecycle, begin, renders: () => renders };
}

describe('completeNow', () => {
  it('starts a pending generation now and completes it with its outputs', async () => {
    const { scheduler, lifecycle, begin } = lifecycleWith();
    const g = begin(generation());
    scheduler.advance(40);
    await lifecycle.completeNow(g);
    expect([g.status, g.startedAt, g.completedAt, g.outputs.map((o) => o.fileKey)]).toEqual([
      'completed',
      40,
      40,
      ['f1'],
    ]);
  });

  it('uses the outputs already rendered instead of rendering again', async () => {
    const { scheduler, lifecycle, begin, renders } = lifecycleWith();
    const g = begin(generation());
    scheduler.advance(100);
    await lifecycle.settle();
    expect([g.status, renders()]).toEqual(['running', 1]);
    await lifecycle.completeNow(g);
    expect([g.status, g.outputs.map((o) => o.fileKey), renders()]).toEqual(['completed', ['f1'], 1]);
  });

  it('refuses a final generation, saying which and how it ended', async () => {
    const { lifecycle, begin } = lifecycleWith();
    const g = begin(generation());
    lifecycle.failNow(g, { code: 'internal_error', refund: 'none' });
    await expect(lifecycle.completeNow(g)).rejects.toMatchObject({
      code: 'generation_final',
      message: 'Generation gen_1 is already failed.',
    });
  });
});

describe('watchMoves', () => {
  it('tells a watcher every move until it stops watching', async () => {
    const { scheduler, lifecycle, begin } = lifecycleWith();
    const a = begin(generation({}, 'gen_a'));
    const seen: string[] = [];
    const stop = lifecycle.watchMoves((id, from, to) => seen.push(`${id} ${from}->${to}`));
    scheduler.advance(100);
    await lifecycle.settle();
    stop();
    scheduler.advance(200);
    await lifecycle.settle();
    expect(a.status).toBe('completed');
    expect(seen).toEqual(['gen_a pending->running']);
  });
});
