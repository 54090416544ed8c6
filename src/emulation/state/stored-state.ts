// Reads the store of record back into the export format, which import validates and applies: start-up and recovery.
import type { SqliteStore } from '../../infra/sqlite-store.js';
import { VERSION } from '../../version.js';
import { type EmulatorState, STATE_FORMAT, STATE_VERSION } from './emulator-state.js';

const parseAll = <T>(rows: { json: string }[]): T[] => rows.map((row) => JSON.parse(row.json) as T);

export function readStoredState(store: SqliteStore): EmulatorState {
  type Domain = EmulatorState['domain'];
  const meta = <T>(key: string, fallback: T): T => {
    const text = store.meta(key);
    return text === undefined ? fallback : (JSON.parse(text) as T);
  };
  const control = meta<Pick<EmulatorState['control'], 'faults' | 'scenario'>>('control', {
    faults: [],
    scenario: null,
  });
  const clock = meta<Domain['clock']>('clock', { now: Date.now(), frozen: false, offset_ms: 0 });
  return {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    emulator_version: VERSION,
    exported_at: new Date(clock.now).toISOString(),
    domain: {
      clock,
      timing: meta<Domain['timing']>('timing', { profile: 'realistic', byModel: {} } as Domain['timing']),
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
      journal: { seq: meta('journal_seq', 0), entries: parseAll(store.documents('journal')) },
    },
  };
}
