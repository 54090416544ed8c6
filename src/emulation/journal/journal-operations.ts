// Control operations on the request journal: read it filtered by path, method, status, since and fault; clear it.
import { DomainError } from '../../domain/errors.js';
import type { ControlDeps } from '../plane-state.js';
import { journalQuery, parseInput, parseInstant } from '../inputs.js';
import { journalEntryView, journalView, type JournalEntryDetailView, type JournalEntryView } from '../views.js';

export interface JournalQuery {
  /** Exact path, or a prefix ending in `*`. */
  path?: string;
  method?: string;
  /** 503, "503" or a class such as "5xx"; 0 for requests that got no HTTP answer. */
  status?: string | number;
  /** ISO 8601 or ms since the epoch, on the emulator clock. */
  since?: string | number | Date;
  fault_id?: string;
  limit?: number;
}

export function readJournal(deps: ControlDeps, query: JournalQuery = {}): JournalEntryView[] {
  const since = query.since instanceof Date ? query.since.getTime() : query.since;
  const q = parseInput(journalQuery, { ...query, since }, 'journal query');
  return deps.state.journal
    .list({
      path: q.path,
      method: q.method,
      status: q.status,
      since: q.since === undefined ? undefined : parseInstant(q.since, 'since'),
      faultId: q.fault_id,
      limit: q.limit,
    })
    .map(journalView);
}

export function clearJournal(deps: ControlDeps): { ok: true } {
  deps.state.journal.clear();
  return { ok: true };
}

/** One entry with its request and response bodies, for the request inspector. */
export function readJournalEntry(deps: ControlDeps, id: number): JournalEntryDetailView {
  const entry = Number.isSafeInteger(id) ? deps.state.journal.get(id) : undefined;
  if (!entry)
    throw new DomainError(
      'journal_entry_not_found',
      `No journal entry ${String(id)}: it never existed, or the journal was cleared or trimmed. List entries with GET /_emulator/journal.`,
    );
  return journalEntryView(entry);
}
