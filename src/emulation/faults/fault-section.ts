// The fault rules as a section of the store of record: exported, checked whole and restored with the state.
import { DomainError } from '../../domain/errors.js';
import type { KeptValue } from '../../wiring/kept-state.js';
import type { ControlState } from '../plane-state.js';
import { FaultStore, MAX_FAULT_RULES, type FaultSnapshot } from './fault-store.js';

export function faultSection(state: ControlState): KeptValue {
  return {
    kind: 'value',
    name: 'faults',
    empty: [],
    current: () => state.faults.snapshot(),
    prepare(value, origin) {
      if (!Array.isArray(value))
        throw new DomainError(
          'invalid_state',
          'control.faults: must be an array of fault rules, as GET /_emulator/state exports it.',
        );
      // Counted before a rule is parsed; the store's own state loads whole (it may predate the bound).
      if (origin === 'import' && value.length > MAX_FAULT_RULES)
        throw new DomainError(
          'invalid_state',
          `control.faults: holds ${value.length} rules; at most ${MAX_FAULT_RULES.toLocaleString('en-US')} can be in force at once. Import fewer.`,
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
