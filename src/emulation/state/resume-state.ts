// A start (or a recovery) from the store of record that reads only what the heap keeps; the rest is read on demand.
import type { LedgerTotals } from '../../domain/ledger.js';
import { resumeDomain, type StoredDomain } from '../../domain/state-resume.js';
import type { SqliteStore } from '../../infra/sqlite-store.js';
import { BODY_WINDOW, JOURNAL_BODIES } from '../journal/journal-store.js';
import { FaultStore } from '../faults/fault-store.js';
import { parseScenario } from '../scenarios/scenario-parse.js';
import type { ControlDeps } from '../plane-state.js';
import { type RecordSources, TIMERS_IN_STORE } from './state-changes.js';
import { parseAll, storedMeta, storedSettings } from './stored-state.js';

/**
 * True when the store keeps the ledger's sums, the id sequences and its waiting generations' due times, so a start
 * need not read every row. An older store is read whole once and written again with them.
 */
export function canResume(store: SqliteStore): boolean {
  return (
    store.meta('ledger_totals') !== undefined &&
    store.meta('ids') !== undefined &&
    store.meta('timers') === TIMERS_IN_STORE
  );
}

/** Swaps in a context resumed from the store; a bad rule or scenario in it throws before anything changes. */
export async function resumeState(deps: ControlDeps, store: SqliteStore, sources: RecordSources): Promise<void> {
  const { control, clock, timing } = storedSettings(store);
  const meta = <T>(key: string, fallback: T): T => storedMeta(store, key, fallback);
  const stored: StoredDomain = {
    clock,
    timing,
    accounts: parseAll(store.documents('accounts')),
    keys: parseAll(store.documents('api_keys')),
    ledgerTotals: meta<LedgerTotals>('ledger_totals', {} as LedgerTotals),
    ledger: sources.ledger,
    ids: meta<Record<string, number>>('ids', {}),
    lastSeq: store.lastSeq(),
    running: store.runningGenerations().map((json) => JSON.parse(json)),
    uploads: parseAll(store.documents('uploads')),
  };
  const scenario = control.scenario
    ? { ...control.scenario, definition: parseScenario(control.scenario.definition, '(stored)') }
    : null;
  new FaultStore().restore(control.faults);
  await deps.runtime.restore((ctx) => resumeDomain(ctx, stored), 'store');
  const { state } = deps;
  state.clear();
  state.faults.restore(control.faults);
  state.journal.restore({
    seq: meta('journal_seq', 0),
    entries: parseAll(store.journalDocuments(BODY_WINDOW, JOURNAL_BODIES)),
  });
  state.scenario = scenario;
}
