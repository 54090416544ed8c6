// The fault rules as a kept section: a bad rule refuses the whole part before the live rules change.
import { describe, expect, it } from 'vitest';
import { FaultSection } from '../../../../src/emulation/faults/fault-section.js';
import { ControlState } from '../../../../src/emulation/plane-state.js';

function withRule() {
  const state = new ControlState();
  state.faults.add({ id: 'live', action: { type: 'status', status: 503 } }, { now: 0 });
  return state;
}

describe('FaultSection', () => {
  it('exports the rules and installs an exported part in their place', () => {
    const source = withRule();
    const target = new ControlState();
    const install = new FaultSection(target).prepare(structuredClone(new FaultSection(source).current()), 'import');
    expect(target.faults.snapshot()).toEqual([]);
    install();
    expect(target.faults.snapshot()).toEqual(source.faults.snapshot());
  });

  it('refuses a part that is not an array, or holds a bad rule, and leaves the live rules as they were', () => {
    const state = withRule();
    const section = new FaultSection(state);
    expect(() => section.prepare({}, 'import')).toThrow(expect.objectContaining({ code: 'invalid_state' }));
    const bad = [{ ...state.faults.snapshot()[0], definition: { action: { type: 'status', status: 200 } } }];
    expect(() => section.prepare(bad, 'import')).toThrow(
      expect.objectContaining({
        code: 'invalid_state',
        details: { problems: [{ field: 'control.faults[0].definition.action.status', message: expect.any(String) }] },
      }),
    );
    expect(state.faults.snapshot().map((r) => r.id)).toEqual(['live']);
  });

  it.each([
    ['[0]', null],
    ['[0].createdAt', { createdAt: 'abc' }],
    ['[0].createdAt', { createdAt: -1 }],
    ['[0].enabled', { enabled: 'yes' }],
    ['[0].matched', { matched: 'x' }],
    ['[0].fired', { fired: { a: 1 } }],
    ['[0].fired', { fired: 1 }],
    ['[0].source', { source: 'mine' }],
    ['[0].id', { id: '..' }],
  ])('refuses control.faults%s as invalid_state naming it, before anything changes', (field, change) => {
    const state = withRule();
    const rule = change === null ? null : { ...state.faults.snapshot()[0], ...change };
    expect(() => new FaultSection(state).prepare([rule], 'import')).toThrow(
      expect.objectContaining({
        code: 'invalid_state',
        details: { problems: [expect.objectContaining({ field: `control.faults${field}` })] },
      }),
    );
    expect(state.faults.snapshot()).toEqual(withRule().faults.snapshot());
  });

  it('refuses two rules with one id, naming the second', () => {
    const rule = withRule().faults.snapshot()[0];
    expect(() => new FaultSection(new ControlState()).prepare([rule, rule], 'import')).toThrow(
      expect.objectContaining({ details: { problems: [expect.objectContaining({ field: 'control.faults[1].id' })] } }),
    );
  });

  it('loads a stored rule whose id an older emulator accepted and today refuses (..)', () => {
    const state = new ControlState();
    const rule = { ...withRule().faults.snapshot()[0], id: '..' };
    new FaultSection(state).prepare([rule], 'store')();
    expect(state.faults.list().map((r) => r.id)).toEqual(['..']);
  });
});
