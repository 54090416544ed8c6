// Reads the store of record back into the export format, which import validates and applies: start-up and recovery.
import type { SqliteStore } from '../../infra/sqlite-store.js';
import { BODY_WINDOW, JOURNAL_BODIES } from '../journal/journal-store.js';
import { VERSION } from '../../version.js';
import { type EmulatorState, STATE_FORMAT, STATE_VERSION } from './emulator-state.js';

type Domain = EmulatorState['domain'];

export const parseAll = <T>(rows: { json: string }[]): T[] => rows.map((row) => JSON.parse(row.json) as T);

/** A meta value of the store, parsed; `fallback` when it was never written. */
export function storedMeta<T>(store: SqliteStore, key: string, fallback: T): T {
  const text = store.meta(key);
  return text === undefined ? fallback : (JSON.parse(text) as T);
}

/** The meta values both a whole read and a resume start from: the control plane's rules, the clock, the timing. */
export function storedSettings(store: SqliteStore) {
  return {
    control: storedMeta<Pick<EmulatorState['control'], 'faults' | 'scenario'>>(store, 'control', {
      faults: [],
      scenario: null,
    }),
    clock: storedMeta<Domain['clock']>(store, 'clock', { now: Date.now(), frozen: false, offset_ms: 0 }),
    timing: storedMeta<Domain['timing']>(store, 'timing', { profile: 'realistic', byModel: {} } as Domain['timing']),
  };
}

export function readStoredState(store: SqliteStore): EmulatorState {
  const { control, clock, timing } = storedSettings(store);
  return {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    emulator_version: VERSION,
    exported_at: new Date(clock.now).toISOString(),
    domain: {
      clock,
      timing,
      accounts: parseAll(store.documents('accounts')),
      keys: parseAll(store.documents('api_keys')),
      ledger: parseAll(store.documents('ledger')),
      generations: parseAll(store.documents('generations')),
      uploads: parseAll(store.documents('uploads')),
      idempotency: store
        .documents('idempotency')
        .map((row) => [String(row.key), JSON.parse(row.json)]) as Domain['idempotency'],
    },
    control: {
      ...control,
      journal: {
        seq: storedMeta(store, 'journal_seq', 0),
        entries: parseAll(store.journalDocuments(BODY_WINDOW, JOURNAL_BODIES)),
      },
    },
  };
}
