// Control operations on the request journal: read it filtered by path, method, status, since and fault; clear it.
import { PlaneError } from '../error-codes.js';
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
export function readJournalEntry(deps: ControlDeps, id: number | string): JournalEntryDetailView {
  // From a URL the id is text: anything but digits names no entry, and the message repeats it as sent (not NaN).
  const n = typeof id === 'number' ? id : /^\d{1,15}$/.test(id) ? Number(id) : Number.NaN;
  const entry = Number.isSafeInteger(n) ? deps.state.journal.get(n) : undefined;
  if (!entry)
    throw new PlaneError(
      'journal_entry_not_found',
      `No journal entry '${id}': it never existed, or the journal was cleared or trimmed. List entries with GET /_emulator/journal.`,
    );
  return journalEntryView(entry);
}
