// Unit tests of the fault store: validation, first match wins, after / times / probability, and the body question.
import { describe, expect, it } from 'vitest';
// Node's engine, as src/emulator.ts composes it: the store is used here without an emulator.
import '../../../../src/emulation/faults/pattern-engine-node.js';
import { FaultStore } from '../../../../src/emulation/faults/fault-store.js';

const submit = { operation: 'submitGeneration', method: 'POST', path: '/v1/media/generations', keyId: 1 };
const never = () => 0.99;

describe('FaultStore', () => {
  it('refuses an invalid rule with an error that names the field', () => {
    expect(() => new FaultStore().add({ action: { type: 'status', status: 200 } }, { now: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid_fault_rule', message: expect.stringContaining('action.status') }),
    );
  });

  it('lets the first matching rule win, and counts matches and firings on that rule only', () => {
    const store = new FaultStore();
    const first = store.add({ match: { route: '/v1/media/*' }, action: { type: 'status', status: 503 } }, { now: 0 });
    const second = store.add({ action: { type: 'status', status: 500 } }, { now: 0 });
    expect(store.match('http', submit, never)?.id).toBe(first.id);
    expect([first.matched, first.fired, second.matched]).toEqual([1, 1, 0]);
  });

  it('skips the first `after` matches and stops after `times` firings', () => {
    const store = new FaultStore();
    store.add({ after: 1, times: 2, action: { type: 'status', status: 503 } }, { now: 0 });
    const fired = Array.from({ length: 5 }, () => store.match('http', submit, never) !== undefined);
    expect(fired).toEqual([false, true, true, false, false]);
  });

  it('fires a rule with a probability only when the injected random number falls below it', () => {
    const store = new FaultStore();
    store.add({ probability: 0.5, action: { type: 'status', status: 503 } }, { now: 0 });
    expect(store.match('http', submit, () => 0.7)).toBeUndefined();
    expect(store.match('http', submit, () => 0.2)).toBeDefined();
  });

  it('keeps HTTP and generation rules apart', () => {
    const store = new FaultStore();
    store.add({ action: { type: 'stall' } }, { now: 0 });
    expect(store.match('http', submit, never)).toBeUndefined();
    expect(store.match('generation', submit, never)).toBeDefined();
  });

  it('says the body is needed only when a live HTTP rule matches on model_slug or prompt', () => {
    const store = new FaultStore();
    expect(store.isEmpty).toBe(true);
    const rule = store.add({ match: { model_slug: 'm' }, action: { type: 'status', status: 503 } }, { now: 0 });
    expect(store.needsBody(submit)).toBe(true);
    store.setEnabled(rule.id, false);
    expect(store.needsBody(submit)).toBe(false);
  });

  it('restores checked rules with their counters', () => {
    const store = new FaultStore();
    store.add({ times: 3, action: { type: 'status', status: 503 } }, { now: 0 });
    store.match('http', submit, never);
    const copy = new FaultStore();
    copy.restore(store.list());
    expect(FaultStore.remaining(copy.list()[0])).toBe(2);
  });
});
