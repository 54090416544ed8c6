// Without `find` the lifecycle keeps its generations' first moves itself: useStore hands none to a store of record.
import { describe, expect, it } from 'vitest';
import type { Generation, OutputFile } from '../../../src/domain/generation.js';
import { Ledger } from '../../../src/domain/ledger.js';
import { Lifecycle } from '../../../src/domain/lifecycle.js';
import { createClock } from '../../../src/infra/clock.js';
import { createScheduler } from '../../../src/infra/scheduler.js';

const OUTPUT: OutputFile = { index: 0, fileKey: 'f', mimeType: 'video/mp4', format: 'mp4', bytes: 10 };

describe('useStore without find', () => {
  it('leaves the first moves in the lifecycle: a generation still starts on time', () => {
    const clock = createClock({ frozenAt: 0 });
    const scheduler = createScheduler(clock);
    const ledger = new Ledger(() => 'led_1');
    const held = new Map<string, Generation>();
    const lifecycle = new Lifecycle({
      clock,
      scheduler,
      ledger,
      render: async () => [OUTPUT],
      resident: (id) => held.get(id),
    });
    const g = {
      seq: 1,
      id: 'gen_1',
      accountId: 'a',
      apiKeyId: 1,
      modelSlug: 'm',
      status: 'pending',
      createdAt: 0,
      startedAt: null,
      completedAt: null,
      error: null,
      outputs: [],
      plan: { pendingMs: 100, runningMs: 200, manualOnly: false },
    } as unknown as Generation;
    held.set(g.id, g);
    lifecycle.begin(g);
    lifecycle.useStore({ waiting: () => [] }, new Set());
    lifecycle.committed([g]);
    scheduler.advance(100);
    expect([g.status, g.startedAt]).toEqual(['running', 100]);
  });
});
