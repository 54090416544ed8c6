// The active scenario as a section of the store of record: its definition checked again when it comes back.
import type { KeptValue } from '../../wiring/kept-state.js';
import type { ActiveScenario, ControlState } from '../plane-state.js';
import { parseScenario } from './scenario-parse.js';

export function scenarioSection(state: ControlState): KeptValue {
  return {
    kind: 'value',
    name: 'scenario',
    empty: null,
    current: () => state.scenario,
    prepare(value, origin) {
      const kept = value as ActiveScenario | null | undefined;
      const scenario = kept
        ? { ...kept, definition: parseScenario(kept.definition, origin === 'store' ? '(stored)' : '(imported)') }
        : null;
      return () => {
        state.scenario = scenario;
      };
    },
  };
}
