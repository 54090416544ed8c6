// The lifecycle's unit tests' fixture: a pending generation, and a Lifecycle over a frozen clock, its scheduler and a
// real Ledger, with nothing else of the emulator around it.
import type { Generation, GenerationPlan, OutputFile } from '../../src/domain/generation.js';
import { Ledger } from '../../src/domain/ledger.js';
import { Lifecycle, type LifecycleDeps } from '../../src/domain/lifecycle.js';
import { createClock } from '../../src/infra/clock.js';
import { createScheduler } from '../../src/infra/scheduler.js';

export const OUTPUT: OutputFile = { index: 0, fileKey: 'f', mimeType: 'video/mp4', format: 'mp4', bytes: 10 };

/** A generation just accepted: pending, due to start after 100 ms and to run for 200 ms unless `plan` says otherwise. */
export function pendingGeneration(plan: Partial<GenerationPlan> = {}, id = 'gen_1'): Generation {
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

/** A Lifecycle at time 0 whose render answers at once with OUTPUT, unless `deps` replaces it or adds to it. */
export function frozenLifecycle(deps: Partial<LifecycleDeps> = {}) {
  const clock = createClock({ frozenAt: 0 });
  const scheduler = createScheduler(clock);
  let entries = 0;
  const ledger = new Ledger(() => `led_${++entries}`);
  const lifecycle = new Lifecycle({ clock, scheduler, ledger, render: async () => [OUTPUT], ...deps });
  /** Books the charge a refund can give back, as an accepted submission does. */
  const charge = (g: Generation, amount = 10) =>
    ledger.append({ type: 'charge', accountId: 'a', amount, at: 0, generationId: g.id, keyId: 1 });
  return { clock, scheduler, ledger, lifecycle, charge };
}
