// The fault rules as a section of the store of record: exported, checked whole and restored with the state.
import { DomainError } from '../../domain/errors.js';
import type { KeptValue } from '../../wiring/kept-state.js';
import type { ControlState } from '../plane-state.js';
import { FaultStore, type FaultSnapshot } from './fault-store.js';

export function faultSection(state: ControlState): KeptValue {
  return {
    kind: 'value',
    name: 'faults',
    empty: [],
    current: () => state.faults.snapshot(),
    prepare(value) {
      if (!Array.isArray(value))
        throw new DomainError(
          'invalid_state',
          'control.faults: must be an array of fault rules, as GET /_emulator/state exports it.',
        );
      // Restored into a store of their own first: a bad rule refuses the whole state before anything changed.
      const faults = new FaultStore();
      faults.restore(value as FaultSnapshot[]);
      return () => {
        state.faults = faults;
      };
    },
  };
}
