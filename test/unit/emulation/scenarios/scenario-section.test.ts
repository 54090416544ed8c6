// The active scenario as a kept section: its definition checked again on the way in, named by where it came from.
import { describe, expect, it } from 'vitest';
import { ControlState } from '../../../../src/emulation/plane-state.js';
import { ScenarioSection } from '../../../../src/emulation/scenarios/scenario-section.js';

const active = {
  definition: { name: 'kept', steps: [{ op: 'set_balance', balance: 10 }] },
  loadedAt: 0,
  ruleIds: [],
  stepsRun: 0,
};

describe('ScenarioSection', () => {
  it('installs a kept scenario only when told to, and an absent one as none', () => {
    const state = new ControlState();
    const section = new ScenarioSection(state);
    const install = section.prepare(structuredClone(active), 'store');
    expect(state.scenario).toBeNull();
    install();
    expect(state.scenario?.definition.name).toBe('kept');
    section.prepare(undefined, 'import')();
    expect(state.scenario).toBeNull();
  });

  it('refuses a bad definition on an import as invalid_state naming the field, before anything changes', () => {
    const state = new ControlState();
    const section = new ScenarioSection(state);
    const bad = { ...active, definition: { name: 'kept', steps: [{ op: 'no_such_op' }] } };
    expect(() => section.prepare(bad, 'import')).toThrow(
      expect.objectContaining({
        code: 'invalid_state',
        message: expect.stringContaining('control.scenario.definition.steps[0]'),
      }),
    );
    expect(state.scenario).toBeNull();
  });

  it('keeps a stored scenario an older emulator accepted, though today it would be refused', () => {
    const state = new ControlState();
    const older = {
      ...active,
      definition: { name: 'old', steps: [{ op: 'create_account', id: '__proto__' }], faults: [] },
      stepsRun: 1,
    };
    expect(() => new ScenarioSection(state).prepare(older, 'import')).toThrow(
      expect.objectContaining({ code: 'invalid_state' }),
    );
    new ScenarioSection(state).prepare(older, 'store')();
    expect(state.scenario).toMatchObject({ definition: { name: 'old' }, stepsRun: 1 });
  });

  it.each([
    ['loadedAt', { loadedAt: 'abc' }],
    ['ruleIds', { ruleIds: 'zz' }],
    ['stepsRun', { stepsRun: 'q' }],
    ['stepsRun', { stepsRun: 2 }],
    ['ruleIds', { ruleIds: ['a'] }],
    [
      'ruleIds[1]',
      {
        definition: {
          ...active.definition,
          faults: [{ action: { type: 'status', status: 503 } }, { action: { type: 'status', status: 503 } }],
        },
        ruleIds: ['a', 'a'],
      },
    ],
  ])('refuses a bad %s, from an import and from the store alike', (member, change) => {
    const state = new ControlState();
    for (const origin of ['import', 'store'] as const)
      expect(() => new ScenarioSection(state).prepare({ ...active, ...change }, origin)).toThrow(
        expect.objectContaining({
          code: 'invalid_state',
          details: { problems: [expect.objectContaining({ field: `control.scenario.${member}` })] },
        }),
      );
    expect(state.scenario).toBeNull();
  });
});
