// Unit tests of the lifecycle: the transition table on a frozen clock, failures with refund policies, operator refunds,
// and the render backlog (at most `renderSlots` renders run; the rest wait as plain generations, in order).
import { describe, expect, it } from 'vitest';
import type { Generation, GenerationPlan, OutputFile } from '../../../src/domain/generation.js';
import type { LifecycleDeps } from '../../../src/domain/lifecycle.js';
import { frozenLifecycle, OUTPUT, pendingGeneration } from '../../helpers/lifecycle-fixture.js';

function setup(deps: Partial<Pick<LifecycleDeps, 'render' | 'renderSlots'>> = {}) {
  // The render port is the lifecycle's injected boundary; here it answers at once with one output.
  const { clock, scheduler, ledger, lifecycle, charge } = frozenLifecycle(deps);
  let made = 0;
  const generation = (plan: Partial<GenerationPlan> = {}): Generation => {
    const g = pendingGeneration(plan, `gen_${made++}`);
    charge(g);
    lifecycle.begin(g);
    return g;
  };
  const advance = async (ms: number) => {
    scheduler.advance(ms);
    await lifecycle.settle();
  };
  return { clock, scheduler, ledger, lifecycle, generation, advance };
}

describe('Lifecycle', () => {
  it('moves pending -> running -> completed at the planned instants, with the rendered outputs', async () => {
    const { lifecycle, generation, advance } = setup();
    const g = generation();
    await advance(99);
    expect(g.status).toBe('pending');
    await advance(1);
    expect([g.status, g.startedAt]).toEqual(['running', 100]);
    await advance(200);
    expect([g.status, g.completedAt, g.outputs]).toEqual(['completed', 300, [OUTPUT]]);
    lifecycle.clear();
  });

  it('fails at the planned stage and refunds as the plan says', async () => {
    const { ledger, generation, advance } = setup();
    const g = generation({
      fail: { at: 'running', afterMs: 50, code: 'timeout', message: 'stopped', refund: { kind: 'partial', amount: 4 } },
    });
    await advance(150);
    expect([g.status, g.error]).toEqual(['failed', { code: 'timeout', message: 'stopped' }]);
    expect(ledger.generationCredits(g.id)).toEqual({ charged: 10, refunded: 4 });
  });

  it('fails now at an operator request, wording the message from the code and the refund', () => {
    const { ledger, lifecycle, generation } = setup();
    const g = generation();
    lifecycle.failNow(g, { code: 'internal_error', refund: { partial: 3 } });
    expect(g.status).toBe('failed');
    expect(g.error?.message).toContain('3 of the 10 credits charged were refunded');
    expect(ledger.generationCredits(g.id).refunded).toBe(3);
  });

  it('refuses to fail a final generation, or to refund more than is left when failing', () => {
    const { lifecycle, generation } = setup();
    const g = generation();
    expect(() => lifecycle.failNow(g, { code: 'internal_error', refund: { partial: 11 } })).toThrow(
      expect.objectContaining({ code: 'invalid_refund_amount' }),
    );
    expect(g.status).toBe('pending');
    lifecycle.failNow(g, { code: 'internal_error', refund: 'none' });
    expect(() => lifecycle.failNow(g, { code: 'internal_error', refund: 'full' })).toThrow(
      expect.objectContaining({ code: 'generation_final' }),
    );
  });

  it('refunds only final generations, once in full, and never more than what is left', () => {
    const { lifecycle, generation } = setup();
    const g = generation();
    expect(() => lifecycle.refund(g, { kind: 'full' })).toThrow(
      expect.objectContaining({ code: 'generation_not_final' }),
    );
    lifecycle.failNow(g, { code: 'internal_error', refund: 'none' });
    expect(lifecycle.refund(g, { kind: 'partial', amount: 4 })).toBe(4);
    expect(() => lifecycle.refund(g, { kind: 'partial', amount: 7 })).toThrow(
      expect.objectContaining({ code: 'invalid_refund_amount' }),
    );
    expect(lifecycle.refund(g, { kind: 'full' })).toBe(6);
    expect(() => lifecycle.refund(g, { kind: 'full' })).toThrow(expect.objectContaining({ code: 'already_refunded' }));
  });

  it('keeps a stalled generation running until it is completed by hand', async () => {
    const { lifecycle, generation, advance } = setup();
    const g = generation({ stall: true });
    await advance(10_000);
    expect(g.status).toBe('running');
    await lifecycle.completeNow(g);
    expect(g.status).toBe('completed');
  });
});

/** Renders that wait until the test finishes them, so the test sees which ones hold a slot; five generations, due now. */
function backlogSetup(renderSlots: number) {
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const render = (g: Generation) =>
    new Promise<OutputFile[]>((resolve) => {
      started.push(g.id);
      finish.set(g.id, () => resolve([OUTPUT]));
    });
  const { scheduler, lifecycle, generation } = setup({ render, renderSlots });
  const generations = Array.from({ length: 5 }, () => generation({ pendingMs: 0, runningMs: 0 }));
  const flush = () => new Promise((resolve) => setImmediate(resolve));
  return { scheduler, lifecycle, generations, started, finish, flush };
}

describe('render backlog', () => {
  it('runs at most renderSlots renders and starts the waiting ones in submission order as slots free', async () => {
    const { scheduler, lifecycle, generations, started, finish, flush } = backlogSetup(2);
    scheduler.advance(0);
    expect(generations.every((g) => g.status === 'running')).toBe(true);
    expect(started).toEqual(['gen_0', 'gen_1']);
    expect(lifecycle.rendersInFlight()).toBe(5);
    finish.get('gen_1')?.();
    await flush();
    expect(started).toEqual(['gen_0', 'gen_1', 'gen_2']);
    expect(generations[1].status).toBe('completed');
    finish.get('gen_0')?.();
    await flush();
    expect(started).toEqual(['gen_0', 'gen_1', 'gen_2', 'gen_3']);
  });

  it('never renders a waiting generation that failed meanwhile, and settle() waits for the whole backlog', async () => {
    const { scheduler, lifecycle, generations, started, finish, flush } = backlogSetup(1);
    scheduler.advance(0);
    lifecycle.failNow(generations[1], { code: 'internal_error', refund: 'full' });
    const settled = lifecycle.settle();
    for (const id of ['gen_0', 'gen_2', 'gen_3', 'gen_4']) {
      await flush();
      expect(started.at(-1)).toBe(id);
      finish.get(id)?.();
    }
    await settled;
    expect(started).not.toContain('gen_1');
    expect(generations.map((g) => g.status)).toEqual(['completed', 'failed', 'completed', 'completed', 'completed']);
    expect(lifecycle.rendersInFlight()).toBe(0);
  });

  it('completeNow() renders a waiting generation at once instead of after the ones ahead of it', async () => {
    const { scheduler, lifecycle, generations, started, finish, flush } = backlogSetup(1);
    scheduler.advance(0);
    const done = lifecycle.completeNow(generations[4]);
    await flush();
    expect(started).toEqual(['gen_0', 'gen_4']);
    finish.get('gen_4')?.();
    await done;
    expect(generations[4].status).toBe('completed');
    lifecycle.clear();
  });
});
