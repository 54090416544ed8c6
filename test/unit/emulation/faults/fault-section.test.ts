// The fault rules as a kept section: a bad rule refuses the whole part before the live rules change.
import { describe, expect, it } from 'vitest';
import { faultSection } from '../../../../src/emulation/faults/fault-section.js';
import { ControlState } from '../../../../src/emulation/plane-state.js';

function withRule() {
  const state = new ControlState();
  state.faults.add({ id: 'live', action: { type: 'status', status: 503 } }, { now: 0 });
  return state;
}

describe('faultSection', () => {
  it('exports the rules and installs an exported part in their place', () => {
    const source = withRule();
    const target = new ControlState();
    const install = faultSection(target).prepare(structuredClone(faultSection(source).current()), 'import');
    expect(target.faults.snapshot()).toEqual([]);
    install();
    expect(target.faults.snapshot()).toEqual(source.faults.snapshot());
  });

  it('refuses a part that is not an array, or holds a bad rule, and leaves the live rules as they were', () => {
    const state = withRule();
    const section = faultSection(state);
    expect(() => section.prepare({}, 'import')).toThrow(expect.objectContaining({ code: 'invalid_state' }));
    const bad = [{ ...state.faults.snapshot()[0], definition: { action: { type: 'status', status: 200 } } }];
    expect(() => section.prepare(bad, 'import')).toThrow(expect.objectContaining({ code: 'invalid_fault_rule' }));
    expect(state.faults.snapshot().map((r) => r.id)).toEqual(['live']);
  });
});
