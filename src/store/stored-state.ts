// Reads the store of record back into the export format, which import validates and applies: start-up and recovery.
import type { SqliteStore } from '../infra/sqlite-store.js';
import { VERSION } from '../version.js';
import type { KeptLog, KeptState, LogDocument, StateDocument } from '../wiring/kept-state.js';
import { logSeqMeta, VALUES_META } from './kept-sections.js';
import { STATE_FORMAT, STATE_VERSION } from './state-document.js';

type Domain = StateDocument['domain'];

export const parseAll = <T>(rows: { json: string }[]): T[] => rows.map((row) => JSON.parse(row.json) as T);

/** A meta value of the store, parsed; `fallback` when it was never written. */
export function storedMeta<T>(store: SqliteStore, key: string, fallback: T): T {
  const text = store.meta(key);
  return text === undefined ? fallback : (JSON.parse(text) as T);
}

/** The meta values both a whole read and a resume start from: the clock and the timing. */
export function storedSettings(store: SqliteStore) {
  return {
    clock: storedMeta<Domain['clock']>(store, 'clock', { now: Date.now(), frozen: false, offset_ms: 0 }),
    timing: storedMeta<Domain['timing']>(store, 'timing', { profile: 'realistic', byModel: {} } as Domain['timing']),
  };
}

/** A kept log as the store holds it: its last id and its rows, the older ones without their large members. */
function storedLog(store: SqliteStore, log: KeptLog): LogDocument {
  const { keep, members } = log.largeMembers;
  return {
    seq: storedMeta(store, logSeqMeta(log), 0),
    entries: parseAll(store.logDocuments(log.name, keep, members)),
  };
}

/** Every kept section's part, in the sections' order; a value the store never held reads as the section's empty one. */
export function storedSections(store: SqliteStore, kept: KeptState): Record<string, unknown> {
  const values = storedMeta<Record<string, unknown>>(store, VALUES_META, {});
  return Object.fromEntries(
    kept.sections.map((s) => [
      s.name,
      s.kind === 'log' ? storedLog(store, s) : s.name in values ? values[s.name] : s.empty,
    ]),
  );
}

export function readStoredState(store: SqliteStore, kept: KeptState): StateDocument {
  const { clock, timing } = storedSettings(store);
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
    control: storedSections(store, kept),
  };
}
