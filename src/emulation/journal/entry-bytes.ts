// What one journal entry adds to GET /_emulator/journal, in bytes: the unit of the journal's byte budget.
import { utf8Length } from '../../http/answers.js';
import type { JournalEntry } from './journal-store.js';

/**
 * An entry as listed, less its texts: member names, punctuation, the largest id, time, key id, status and latency
 * (`{"id":2147483647,"at":"9999-12-31T23:59:59.999Z",...}` is 205 bytes with its comma), with room for a latency an
 * import wrote with more digits.
 */
export const ENTRY_FRAME_BYTES = 224;

/** Printable ASCII but `"` and `\`: written in JSON as one byte each, between two quotes. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

const textBytes = (text: string | null | undefined): number =>
  text === null || text === undefined ? 4 : PLAIN.test(text) ? text.length + 2 : utf8Length(JSON.stringify(text));

/** At least what the entry adds to the list's JSON (exactly, but for the frame); the same for a recorded or imported entry. */
export function entryBytes(e: Omit<JournalEntry, 'id'>): number {
  return (
    ENTRY_FRAME_BYTES +
    textBytes(e.method) +
    textBytes(e.path) +
    textBytes(e.query ?? '') +
    textBytes(e.idempotencyKey) +
    textBytes(e.faultId) +
    textBytes(e.faultReason) +
    textBytes(e.generationId)
  );
}
