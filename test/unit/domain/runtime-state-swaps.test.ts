// createRuntime's swaps and waits: settle, reset and stop wait for renders and drop the old timers; restore's origin,
// its optional afterRestore part, and a fill that throws leaving the running state in place.
import { describe, expect, it } from 'vitest';
import type { DomainContext } from '../../../src/domain/context.js';
import type { Generation, OutputFile } from '../../../src/domain/generation.js';
import { Ledger } from '../../../src/domain/ledger.js';
import { Lifecycle } from '../../../src/domain/lifecycle.js';
import { createRuntime, type RestoreOrigin, type RuntimeParts } from '../../../src/domain/runtime.js';
import { createClock } from '../../../src/infra/clock.js';
import { createScheduler } from '../../../src/infra/scheduler.js';

const OUTPUT: OutputFile = { index: 0, fileKey: 'f', mimeType: 'video/mp4', format: 'mp4', bytes: 10 };

/** One event-loop turn: every promise that can settle by itself has settled. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Runtime parts over the real clock, scheduler, ledger and lifecycle (all the runtime touches of a context). Each render
 * waits until the test releases it, so a test knows a render is in flight.
 */
function runtimeParts() {
  const built: DomainContext[] = [];
  const held: (() => void)[] = [];
  const origins: RestoreOrigin[] = [];
  const calls: string[] = [];
  const parts: RuntimeParts = {
    accountId: 'acct_local',
    build() {
      const clock = createClock({ frozenAt: 0 });
      const scheduler = createScheduler(clock);
      const ledger = new Ledger(() => `led_${built.length}`);
      const render = () => new Promise<OutputFile[]>((resolve) => held.push(() => resolve([OUTPUT])));
      const lifecycle = new Lifecycle({ clock, scheduler, ledger, render });
      const ctx = { clock, scheduler, ledger, lifecycle } as unknown as DomainContext;
      built.push(ctx);
      return ctx;
    },
    async clearFiles() {
      const old = built[built.length - 1];
      calls.push(`clearFiles: ${old.lifecycle.rendersInFlight()} rendering, next move ${old.scheduler.nextDueAt()}`);
    },
    afterReset: () => calls.push('afterReset'),
    afterRestore: (origin) => origins.push(origin),
  };
  const releaseRenders = () => {
    for (const release of held.splice(0)) release();
  };
  return { parts, built, origins, calls, releaseRenders };
}

/** A generation begun on ctx that waits `pendingMs`, then renders and completes at once when its render is done. */
function begin(ctx: DomainContext, id: string, pendingMs: number): Generation {
  const g = {
    id,
    status: 'pending',
    createdAt: ctx.clock.now(),
    startedAt: null,
    completedAt: null,
    error: null,
    outputs: [],
    plan: { pendingMs, runningMs: 0, manualOnly: true },
  } as unknown as Generation;
  ctx.lifecycle.begin(g);
  return g;
}

/** One generation rendering (its render held) and one still waiting for its first move, 1 s away. */
function busy(ctx: DomainContext) {
  const rendering = begin(ctx, 'gen_1', 0);
  const waiting = begin(ctx, 'gen_2', 1000);
  ctx.scheduler.advance(0);
  expect([rendering.status, ctx.lifecycle.rendersInFlight(), ctx.scheduler.nextDueAt()]).toEqual(['running', 1, 1000]);
  return { rendering, waiting };
}

/** Whether `promise` is still pending after a turn of the event loop. */
async function stillPending(promise: Promise<unknown> | unknown) {
  let done = false;
  void Promise.resolve(promise).then(() => {
    done = true;
  });
  await turn();
  return !done;
}

describe('runtime.settle()', () => {
  it('resolves only once every render in flight has finished', async () => {
    const { parts, releaseRenders } = runtimeParts();
    const runtime = createRuntime(parts);
    const { rendering } = busy(runtime.context());
    const settling = runtime.settle();
    expect(await stillPending(settling)).toBe(true);
    releaseRenders();
    await settling;
    expect([rendering.status, rendering.outputs]).toEqual(['completed', [OUTPUT]]);
  });
});

describe('runtime.reset()', () => {
  it('drops the old state, waiting for its renders before files are cleared and the seeded state is built', async () => {
    const { parts, built, calls, releaseRenders } = runtimeParts();
    const runtime = createRuntime(parts);
    const old = runtime.context();
    const { rendering, waiting } = busy(old);
    const resetting = runtime.reset();
    expect(await stillPending(resetting)).toBe(true);
    releaseRenders();
    await resetting;
    // The old state's waiting move is gone, and the render that ended after the reset began changed nothing.
    expect(calls).toEqual(['clearFiles: 0 rendering, next move undefined', 'afterReset']);
    expect([rendering.status, waiting.status]).toEqual(['running', 'pending']);
    expect(runtime.context()).toBe(built[1]);
  });
});

describe('runtime.stop()', () => {
  it('drops every waiting move and resolves once the renders in flight have ended, their outcome ignored', async () => {
    const { parts, releaseRenders } = runtimeParts();
    const runtime = createRuntime(parts);
    const ctx = runtime.context();
    const { rendering } = busy(ctx);
    const stopping = runtime.stop();
    expect(await stillPending(stopping)).toBe(true);
    releaseRenders();
    await stopping;
    expect([ctx.scheduler.nextDueAt(), ctx.lifecycle.rendersInFlight(), rendering.status]).toEqual([
      undefined,
      0,
      'running',
    ]);
  });
});

describe('runtime.restore()', () => {
  it('counts a restore that names no origin as an import (a new state), and passes a named origin on', async () => {
    const { parts, origins } = runtimeParts();
    const runtime = createRuntime(parts);
    await runtime.restore(() => {});
    await runtime.restore(() => {}, 'store');
    expect(origins).toEqual(['import', 'store']);
  });

  it('swaps in the filled state for parts that have no afterRestore', async () => {
    const { parts, built } = runtimeParts();
    const { afterRestore: _unused, ...withoutAfterRestore } = parts;
    const runtime = createRuntime(withoutAfterRestore);
    let filled: DomainContext | undefined;
    await runtime.restore((ctx) => {
      filled = ctx;
    });
    expect(filled).toBe(built[1]);
    expect(runtime.context()).toBe(filled);
  });

  it('rethrows what a failing fill throws, keeps the running state and drops what the fill had scheduled', async () => {
    const { parts, built } = runtimeParts();
    const runtime = createRuntime(parts);
    const running = runtime.context();
    const broken = new Error('snapshot half read');
    const restoring = runtime.restore((ctx) => {
      begin(ctx, 'gen_9', 1000);
      throw broken;
    });
    await expect(restoring).rejects.toBe(broken);
    expect(runtime.context()).toBe(running);
    expect(built[1].scheduler.nextDueAt()).toBeUndefined();
  });
});
