// The journal as a document holds it: every member typed and cut as recording cuts it, so an imported entry reads like a recorded one.
import * as z from 'zod';
import type { RestoreOrigin } from '../../domain/runtime.js';
import { IMPORTED_COUNTER_RULE, MAX_COUNTER, MAX_IMPORTED_COUNTER } from '../../domain/counters.js';
import { notAnExport } from '../../domain/state-problems.js';
import { fieldProblems } from '../../domain/zod-issues.js';
import { JOURNAL_BYTE_BUDGET, JOURNAL_CAPACITY, type JournalEntry, recordedEntrySchema } from './journal-store.js';
import { entryBytes } from './entry-bytes.js';
import { thousands } from '../../domain/thousands.js';

type JournalSnapshot = { seq: number; entries: JournalEntry[] };

const SEQ_RULE = `must be a whole number from 0 to ${MAX_COUNTER}`;
const journalSchema = z.object({
  seq: z.int(SEQ_RULE).min(0, SEQ_RULE).max(MAX_COUNTER, SEQ_RULE),
  entries: z.array(z.unknown()),
});

const refuse = (field: string, message: string) => notAnExport([{ field, message }]);

/** Ids only grow: a lookup by id, the store's marks and `after` rely on it. */
function checkOrder(entries: readonly unknown[]) {
  let last = 0;
  entries.forEach((e, i) => {
    const id = (e as { id?: unknown } | null)?.id;
    if (typeof id !== 'number' || !Number.isInteger(id) || id <= last || id > MAX_COUNTER)
      throw refuse(
        `control.journal.entries[${i}].id`,
        `must be a whole number greater than the entry before it (${last}), at most ${MAX_COUNTER}`,
      );
    last = id;
  });
}

/**
 * The journal's part of a document, checked whole. An import brings at most the journal's capacity and byte budget
 * (an export never holds more): a longer one is refused before any entry is read, a heavier one once they are. The store of record's own rows are cut to the newest
 * `capacity` instead, so a start always loads; their members are not parsed again (they were when they came in, and
 * parsing a full journal costs a start ~150 ms), only their order.
 */
export function parseJournal(value: unknown, origin: RestoreOrigin, capacity = JOURNAL_CAPACITY): JournalSnapshot {
  const outer = journalSchema.safeParse(value);
  if (!outer.success) {
    const problems = fieldProblems(outer.error.issues, ['control', 'journal']);
    if (!value || typeof value !== 'object' || Array.isArray(value))
      problems.splice(0, problems.length, {
        field: 'control.journal',
        message: 'must be { seq, entries }, as GET /_emulator/state exports it',
      });
    throw notAnExport(problems);
  }
  let raw = outer.data.entries;
  if (raw.length > capacity) {
    if (origin === 'import')
      throw refuse(
        'control.journal.entries',
        `${thousands(raw.length)} entries; the journal keeps at most ${thousands(capacity)}: import the newest ones`,
      );
    raw = raw.slice(raw.length - capacity);
  }
  // The next entry's id follows the larger of seq and the last id: on an import both leave room for the entries after.
  const lastId = (raw[raw.length - 1] as { id?: unknown } | undefined)?.id;
  if (origin === 'import') {
    const problems = [
      ['control.journal.seq', outer.data.seq],
      [`control.journal.entries[${raw.length - 1}].id`, lastId],
    ].flatMap(([field, value]) =>
      typeof value === 'number' && value > MAX_IMPORTED_COUNTER
        ? [{ field: String(field), message: `${IMPORTED_COUNTER_RULE} (got ${value})` }]
        : [],
    );
    if (problems.length > 0) throw notAnExport(problems);
  }
  if (origin === 'store') {
    checkOrder(raw);
    return { seq: outer.data.seq, entries: raw as JournalEntry[] };
  }
  const entries = z.array(recordedEntrySchema).safeParse(raw);
  if (!entries.success) throw notAnExport(fieldProblems(entries.error.issues, ['control', 'journal', 'entries']));
  checkOrder(entries.data);
  // As many entries as an export holds, but weighing more than the journal keeps (long texts): refused, not cut.
  const bytes = entries.data.reduce((sum, e) => sum + entryBytes(e), 0);
  if (bytes > JOURNAL_BYTE_BUDGET)
    throw refuse(
      'control.journal.entries',
      `${thousands(bytes)} bytes as listed; the journal keeps at most ${thousands(JOURNAL_BYTE_BUDGET)}: import the newest ones`,
    );
  return { seq: outer.data.seq, entries: entries.data as JournalEntry[] };
}
