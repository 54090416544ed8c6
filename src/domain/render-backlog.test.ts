// The lifecycle's render backlog: at most `renderSlots` renders run, the rest wait as plain generations, in order.
import { describe, expect, it } from 'vitest';
import { createClock } from '../infra/clock.js';
import { createScheduler } from '../infra/scheduler.js';
import type { Generation, OutputFile } from './generation.js';
import { Ledger } from './ledger.js';
import { Lifecycle } from './lifecycle.js';

const OUTPUT: OutputFile = { index: 0, fileKey: 'f', mimeType: 'video/mp4', format: 'mp4', bytes: 10 };

function setup(renderSlots: number) {
  const clock = createClock({ frozenAt: 0 });
  const scheduler = createScheduler(clock);
  let n = 0;
  const ledger = new Ledger(() => `led_${++n}`);
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  // Each render waits until the test finishes it, so the test sees which ones hold a slot.
  const render = (g: Generation) =>
    new Promise<OutputFile[]>((resolve) => {
      started.push(g.id);
      finish.set(g.id, () => resolve([OUTPUT]));
    });
  const lifecycle = new Lifecycle({ clock, scheduler, ledger, render, renderSlots });
  const generations = Array.from({ length: 5 }, (_, i) => {
    const g = {
      id: `gen_${i}`,
      accountId: 'a',
      apiKeyId: 1,
      modelSlug: 'm',
      status: 'pending',
      createdAt: 0,
      startedAt: null,
      completedAt: null,
      error: null,
      outputs: [],
      plan: { pendingMs: 0, runningMs: 0, manualOnly: false },
    } as unknown as Generation;
    ledger.append({ type: 'charge', accountId: 'a', amount: 10, at: 0, generationId: g.id, keyId: 1 });
    lifecycle.begin(g);
    return g;
  });
  const flush = () => new Promise((resolve) => setImmediate(resolve));
  return { scheduler, lifecycle, generations, started, finish, flush };
}

describe('render backlog', () => {
  it('runs at most renderSlots renders and starts the waiting ones in submission order as slots free', async () => {
    const { scheduler, lifecycle, generations, started, finish, flush } = setup(2);
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
    const { scheduler, lifecycle, generations, started, finish, flush } = setup(1);
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
    const { scheduler, lifecycle, generations, started, finish, flush } = setup(1);
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
