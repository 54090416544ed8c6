// The journal as a section of the store of record: one row per entry, its bodies kept on the newest entries only.
import type { RestoreOrigin } from '../../domain/runtime.js';
import type { Install, KeptLog } from '../../wiring/kept-state.js';
import { PlaneSection } from '../plane-state.js';
import { parseJournal } from './journal-schema.js';
import { BODY_WINDOW, JOURNAL_BODIES, Journal } from './journal-store.js';

export class JournalSection extends PlaneSection implements KeptLog {
  readonly kind = 'log';
  readonly name = 'journal';
  readonly largeMembers = { keep: BODY_WINDOW, members: JOURNAL_BODIES };

  current() {
    return this.state.journal.snapshot();
  }

  lastId() {
    return this.state.journal.lastId;
  }

  firstId() {
    return this.state.journal.firstId;
  }

  after(id: number) {
    return this.state.journal.after(id);
  }

  prepare(value: unknown, origin: RestoreOrigin): Install {
    const journal = new Journal();
    journal.restore(parseJournal(value, origin));
    return () => {
      this.state.journal = journal;
    };
  }
}
