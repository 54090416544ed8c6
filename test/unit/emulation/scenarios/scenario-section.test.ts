// The active scenario as a kept section: its definition checked again on the way in, named by where it came from.
import { describe, expect, it } from 'vitest';
import { ControlState } from '../../../../src/emulation/plane-state.js';
import { scenarioSection } from '../../../../src/emulation/scenarios/scenario-section.js';

const active = {
  definition: { name: 'kept', steps: [{ op: 'set_balance', balance: 10 }] },
  loadedAt: 0,
  ruleIds: [],
  stepsRun: 0,
};

describe('scenarioSection', () => {
  it('installs a kept scenario only when told to, and an absent one as none', () => {
    const state = new ControlState();
    const section = scenarioSection(state);
    const install = section.prepare(structuredClone(active), 'store');
    expect(state.scenario).toBeNull();
    install();
    expect(state.scenario?.definition.name).toBe('kept');
    section.prepare(undefined, 'import')();
    expect(state.scenario).toBeNull();
  });

  it('refuses a bad definition before anything changes, naming whether it was stored or imported', () => {
    const state = new ControlState();
    const section = scenarioSection(state);
    const bad = { ...active, definition: { name: 'kept', steps: [{ op: 'no_such_op' }] } };
    expect(() => section.prepare(bad, 'store')).toThrow(/\(stored\)/);
    expect(() => section.prepare(bad, 'import')).toThrow(/\(imported\)/);
    expect(state.scenario).toBeNull();
  });
});
