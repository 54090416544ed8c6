// Moves fall due at their planned instants and act only on the generation as it now is (a stale move does nothing).
import { describe, expect, it } from 'vitest';
import type { Generation, OutputFile } from '../../../src/domain/generation.js';
import { frozenLifecycle, OUTPUT, pendingGeneration } from '../../helpers/lifecycle-fixture.js';

describe('move timing', () => {
  it('fails a generation planned to fail while running exactly afterMs after it started', async () => {
    const { scheduler, lifecycle, charge } = frozenLifecycle();
    const g = pendingGeneration({
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
    const { scheduler, lifecycle, charge } = frozenLifecycle({ render });
    const g = pendingGeneration({
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
    const { scheduler, lifecycle, charge } = frozenLifecycle({ find: (id) => held.get(id) });
    const g = pendingGeneration({});
    charge(g);
    lifecycle.begin(g);
    expect(() => scheduler.advance(100)).not.toThrow();
    expect(g.status).toBe('pending');
  });

  it('drops the waiting move of a generation that fails, so nothing is due any more', () => {
    const { scheduler, lifecycle, charge } = frozenLifecycle();
    const g = pendingGeneration({});
    charge(g);
    lifecycle.begin(g);
    expect(scheduler.nextDueAt()).toBe(100);
    lifecycle.failNow(g, { code: 'internal_error', refund: 'none' });
    expect(scheduler.nextDueAt()).toBeUndefined();
  });
});
