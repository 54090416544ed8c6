// The journal as a section of the store of record: one row per entry, its bodies kept on the newest entries only.
import { DomainError } from '../../domain/errors.js';
import { MAX_COUNTER } from '../../domain/state-snapshot.js';
import type { KeptLog } from '../../wiring/kept-state.js';
import type { ControlState } from '../plane-state.js';
import { BODY_WINDOW, JOURNAL_BODIES, Journal, type JournalEntry } from './journal-store.js';

type JournalSnapshot = { seq: number; entries: JournalEntry[] };

/** The journal numbers new entries from its seq: past 2^31 they would stop being distinct. */
function checkJournal(value: unknown): asserts value is JournalSnapshot {
  const journal = value as Partial<JournalSnapshot> | null;
  if (!journal || typeof journal !== 'object' || !Array.isArray(journal.entries))
    throw new DomainError(
      'invalid_state',
      'control.journal: must be { seq, entries }, as GET /_emulator/state exports it.',
    );
  if (!Number.isInteger(journal.seq) || (journal.seq as number) < 0 || (journal.seq as number) > MAX_COUNTER)
    throw new DomainError('invalid_state', `control.journal.seq: must be a whole number from 0 to ${MAX_COUNTER}.`);
  journal.entries.forEach((e, i) => {
    if (!Number.isInteger(e?.id) || e.id < 1 || e.id > MAX_COUNTER)
      throw new DomainError(
        'invalid_state',
        `control.journal.entries[${i}].id: must be a whole number from 1 to ${MAX_COUNTER}.`,
      );
  });
}

export function journalSection(state: ControlState): KeptLog {
  return {
    kind: 'log',
    name: 'journal',
    largeMembers: { keep: BODY_WINDOW, members: JOURNAL_BODIES },
    current: () => state.journal.snapshot(),
    lastId: () => state.journal.lastId,
    firstId: () => state.journal.firstId,
    after: (id) => state.journal.after(id),
    prepare(value) {
      checkJournal(value);
      const journal = new Journal();
      journal.restore(value);
      return () => {
        state.journal = journal;
      };
    },
  };
}
