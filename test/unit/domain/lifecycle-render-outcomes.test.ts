// A failed render fails its generation (full refund, logged); one ending after a failure or clear() changes nothing.
import { describe, expect, it } from 'vitest';
import type { GenerationPlan, OutputFile } from '../../../src/domain/generation.js';
import type { LifecycleDeps } from '../../../src/domain/lifecycle.js';
import { frozenLifecycle, OUTPUT, pendingGeneration } from '../../helpers/lifecycle-fixture.js';

/** One charged generation on a frozen clock, whose render waits until the test settles it. */
function rendering(deps: Partial<LifecycleDeps> = {}, plan: Partial<GenerationPlan> = {}) {
  const lines: string[] = [];
  let renders = 0;
  let settle: { resolve: (o: OutputFile[]) => void; reject: (e: unknown) => void } | undefined;
  const render = () => {
    renders += 1;
    return new Promise<OutputFile[]>((resolve, reject) => {
      settle = { resolve, reject };
    });
  };
  const { clock, scheduler, ledger, lifecycle, charge } = frozenLifecycle({
    render,
    log: (l) => lines.push(l),
    ...deps,
  });
  const g = pendingGeneration(plan);
  charge(g);
  lifecycle.begin(g);
  const refunds = () => ledger.list({ generationId: g.id }).filter((e) => e.type === 'refund');
  return {
    clock,
    scheduler,
    lifecycle,
    g,
    lines,
    refunds,
    renders: () => renders,
    resolve: () => settle?.resolve([OUTPUT]),
    reject: (e: unknown) => settle?.reject(e),
  };
}

describe('a render that fails', () => {
  it('fails its generation with render_failed and a full refund, and logs why', async () => {
    const { scheduler, lifecycle, g, lines, refunds, reject } = rendering();
    scheduler.advance(150);
    reject(new Error('disk full'));
    await lifecycle.settle();
    expect([g.status, g.completedAt, g.error]).toEqual([
      'failed',
      150,
      {
        code: 'render_failed',
        message: 'The output could not be produced; the charge was refunded. Retry with a new Idempotency-Key.',
      },
    ]);
    expect(refunds().map((e) => e.amount)).toEqual([10]);
    expect(lines).toEqual(['render failed for gen_1: disk full']);
  });

  it('logs a rejection that is not an Error as it is', async () => {
    const { scheduler, lifecycle, lines, reject } = rendering();
    scheduler.advance(100);
    reject('renderer went away');
    await lifecycle.settle();
    expect(lines).toEqual(['render failed for gen_1: renderer went away']);
  });

  it('still fails its generation when no log is wired', async () => {
    const { scheduler, lifecycle, g, refunds, reject } = rendering({ log: undefined });
    scheduler.advance(100);
    reject(new Error('disk full'));
    await lifecycle.settle();
    expect([g.status, g.error?.code, refunds().length]).toEqual(['failed', 'render_failed', 1]);
  });

  it('changes nothing once an operator has failed the generation: one refund, the operator error, no error to a waiting completion', async () => {
    const { scheduler, lifecycle, g, refunds, reject } = rendering();
    scheduler.advance(100);
    const completing = lifecycle.completeNow(g);
    lifecycle.failNow(g, { code: 'internal_error', message: 'stopped by hand', refund: 'full' });
    reject(new Error('aborted'));
    await expect(completing).resolves.toBeUndefined();
    expect([g.status, g.error]).toEqual(['failed', { code: 'internal_error', message: 'stopped by hand' }]);
    expect(refunds().length).toBe(1);
  });
});

describe('a render that ends after clear()', () => {
  it('completes nothing, even when the generation finished its running time', async () => {
    const { scheduler, lifecycle, g, resolve } = rendering();
    scheduler.advance(300);
    expect(g.status).toBe('running');
    lifecycle.clear();
    resolve();
    await lifecycle.settle();
    expect([g.status, g.completedAt, g.outputs]).toEqual(['running', null, []]);
  });

  it('fails nothing, refunds nothing and logs nothing', async () => {
    const { scheduler, lifecycle, g, lines, refunds, reject } = rendering();
    scheduler.advance(100);
    lifecycle.clear();
    reject(new Error('aborted by shutdown'));
    await lifecycle.settle();
    expect([g.status, g.error, refunds().length, lines]).toEqual(['running', null, 0, []]);
  });
});
