// Moves fall due at their planned instants and act only on the generation as it now is (a stale move does nothing).
import { describe, expect, it } from 'vitest';
import type { Generation, GenerationPlan, OutputFile } from '../../../src/domain/generation.js';
import { Ledger } from '../../../src/domain/ledger.js';
import { Lifecycle, type LifecycleDeps } from '../../../src/domain/lifecycle.js';
import { createClock } from '../../../src/infra/clock.js';
import { createScheduler } from '../../../src/infra/scheduler.js';

const OUTPUT: OutputFile = { index: 0, fileKey: 'f', mimeType: 'video/mp4', format: 'mp4', bytes: 10 };

function generation(plan: Partial<GenerationPlan>, id = 'gen_1'): Generation {
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
  const lifecycle = new Lifecycle({ clock, scheduler, ledger, render: async () => [OUTPUT], ...deps });
  const charge = (g: Generation, amount = 10) =>
    ledger.append({ type: 'charge', accountId: 'a', amount, at: 0, generationId: g.id, keyId: 1 });
  return { clock, scheduler, ledger, lifecycle, charge };
}

describe('move timing', () => {
  it('fails a generation planned to fail while running exactly afterMs after it started', async () => {
    const { scheduler, lifecycle, charge } = lifecycleWith();
    const g = generation({
      fail: { at: 'running', afterMs: 50, code: 'timeout', message: 'x', refund: { kind: 'none' } },
    });
    charge(g);
    lifecycle.begin(g);
    scheduler.advance(149);
    await lifecycle.settle();
    expect(g.status).toBe('running');
    scheduler.advance(1);
    expect([g.status, g.startedAt, g.completedAt]).toEqual(['failed', 100, 150]);
  });

  it('lets a completion by hand of a pending generation finish even when its planned failure falls due meanwhile', async () => {
    let finish: (o: OutputFile[]) => void = () => {};
    const render = () =>
      new Promise<OutputFile[]>((resolve) => {
        finish = resolve;
      });
    const { scheduler, lifecycle, charge } = lifecycleWith({ render });
    const g = generation({
      fail: { at: 'pending', afterMs: 100, code: 'timeout', message: 'x', refund: { kind: 'full' } },
    });
    charge(g);
    lifecycle.begin(g);
    const done = lifecycle.completeNow(g);
    scheduler.advance(100);
    finish([OUTPUT]);
    await done;
    expect([g.status, g.startedAt, g.completedAt, g.error]).toEqual(['completed', 0, 100, null]);
  });

  it('does nothing when a move falls due for a generation the store no longer holds', () => {
    const held = new Map<string, Generation>();
    const { scheduler, lifecycle, charge } = lifecycleWith({ find: (id) => held.get(id) });
    const g = generation({});
    charge(g);
    lifecycle.begin(g);
    expect(() => scheduler.advance(100)).not.toThrow();
    expect(g.status).toBe('pending');
  });

  it('drops the waiting move of a generation that fails, so nothing is due any more', () => {
    const { scheduler, lifecycle, charge } = lifecycleWith();
    const g = generation({});
    charge(g);
    lifecycle.begin(g);
    expect(scheduler.nextDueAt()).toBe(100);
    lifecycle.failNow(g, { code: 'internal_error', refund: 'none' });
    expect(scheduler.nextDueAt()).toBeUndefined();
  });
});
