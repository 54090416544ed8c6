// completeNow starts a pending generation now, finishes a running one as it is, reuses rendered outputs, refuses a final
// one; watchers stop when told.
import { describe, expect, it } from 'vitest';
import type { Generation } from '../../../src/domain/generation.js';
import type { LifecycleDeps } from '../../../src/domain/lifecycle.js';
import { frozenLifecycle, OUTPUT, pendingGeneration } from '../../helpers/lifecycle-fixture.js';

function lifecycleWith(deps: Partial<LifecycleDeps> = {}) {
  let renders = 0;
  const render = async () => {
    renders += 1;
    return [{ ...OUTPUT, fileKey: `f${renders}` }];
  };
  const { clock, scheduler, ledger, lifecycle, charge } = frozenLifecycle({ render, ...deps });
  const begin = (g: Generation) => {
    charge(g);
    lifecycle.begin(g);
    return g;
  };
  return { clock, scheduler, ledger, lifecycle, begin, renders: () => renders };
}

describe('completeNow', () => {
  it('starts a pending generation now and completes it with its outputs', async () => {
    const { scheduler, lifecycle, begin } = lifecycleWith();
    const g = begin(pendingGeneration());
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
    const g = begin(pendingGeneration());
    scheduler.advance(100);
    await lifecycle.settle();
    expect([g.status, renders()]).toEqual(['running', 1]);
    await lifecycle.completeNow(g);
    expect([g.status, g.outputs.map((o) => o.fileKey), renders()]).toEqual(['completed', ['f1'], 1]);
  });

  it('completes a running generation from where it is: its start and its moves stay as they were', async () => {
    const { scheduler, lifecycle, begin } = lifecycleWith();
    const g = begin(pendingGeneration());
    scheduler.advance(100);
    await lifecycle.settle();
    scheduler.advance(50);
    const seen: string[] = [];
    lifecycle.watchMoves((id, from, to) => seen.push(`${id} ${from}->${to}`));
    await lifecycle.completeNow(g);
    expect([g.status, g.startedAt, g.completedAt]).toEqual(['completed', 100, 150]);
    expect(seen).toEqual(['gen_1 running->completed']);
  });

  it('refuses a final generation, saying which and how it ended', async () => {
    const { lifecycle, begin } = lifecycleWith();
    const g = begin(pendingGeneration());
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
    const a = begin(pendingGeneration({}, 'gen_a'));
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
