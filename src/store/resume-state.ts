// A start (or a recovery) from the store of record that reads only what the heap keeps; the rest is read on demand.
import type { LedgerTotals } from '../domain/ledger.js';
import { resumeDomain, type StoredDomain } from '../domain/state-resume.js';
import type { SqliteStore } from '../infra/sqlite-store.js';
import type { RecordSources } from './record-sources.js';
import type { DocumentDeps } from './state-document.js';
import { TIMERS_IN_STORE } from './state-rows.js';
import { parseAll, storedMeta, storedSections, storedSettings } from './stored-state.js';

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

/** Swaps in a context resumed from the store; a bad kept section in it throws before anything changes. */
export async function resumeState(deps: DocumentDeps, store: SqliteStore, sources: RecordSources): Promise<void> {
  const { clock, timing } = storedSettings(store);
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
  const sections = storedSections(store, deps.kept);
  const installs = deps.kept.sections.map((section) => section.prepare(sections[section.name], 'store'));
  await deps.runtime.restore((ctx) => resumeDomain(ctx, stored), 'store');
  for (const install of installs) install();
}
