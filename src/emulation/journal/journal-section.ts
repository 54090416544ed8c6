// The journal as a section of the store of record: one row per entry, its bodies kept on the newest entries only.
import type { KeptLog } from '../../wiring/kept-state.js';
import type { ControlState } from '../plane-state.js';
import { parseJournal } from './journal-schema.js';
import { BODY_WINDOW, JOURNAL_BODIES, Journal } from './journal-store.js';

export function journalSection(state: ControlState): KeptLog {
  return {
    kind: 'log',
    name: 'journal',
    largeMembers: { keep: BODY_WINDOW, members: JOURNAL_BODIES },
    current: () => state.journal.snapshot(),
    lastId: () => state.journal.lastId,
    firstId: () => state.journal.firstId,
    after: (id) => state.journal.after(id),
    prepare(value, origin) {
      const journal = new Journal();
      journal.restore(parseJournal(value, origin));
      return () => {
        state.journal = journal;
      };
    },
  };
}
