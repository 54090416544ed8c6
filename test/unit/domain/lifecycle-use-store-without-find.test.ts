// Without `find` the lifecycle keeps its generations' first moves itself: useStore hands none to a store of record.
import { describe, expect, it } from 'vitest';
import type { Generation } from '../../../src/domain/generation.js';
import { frozenLifecycle, pendingGeneration } from '../../helpers/lifecycle-fixture.js';

describe('useStore without find', () => {
  it('leaves the first moves in the lifecycle: a generation still starts on time', () => {
    const held = new Map<string, Generation>();
    const { scheduler, lifecycle } = frozenLifecycle({ resident: (id) => held.get(id) });
    const g = pendingGeneration();
    held.set(g.id, g);
    lifecycle.begin(g);
    lifecycle.useStore({ waiting: () => [] }, new Set());
    lifecycle.committed([g]);
    scheduler.advance(100);
    expect([g.status, g.startedAt]).toEqual(['running', 100]);
  });
});
