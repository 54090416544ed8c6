// /_emulator/journal, declared once (registry/operation.ts): the request journal, filtered or one entry; clearing it.
import * as z from 'zod';
import { defineOperation } from '../registry/operation.js';
import { journalEntrySchema, okAfter, okSchema } from '../openapi/control-schemas.js';
import { journalEntryEnvelopeSchema } from '../openapi/control-console.js';
import { PlaneError } from '../error-codes.js';
import { journalQuery } from '../inputs.js';
import { journalEntryView, journalView } from '../views.js';

export const JOURNAL_API = {
  journal: defineOperation({
    method: 'get',
    path: '/_emulator/journal',
    summary: 'The /v1/media requests the emulator received',
    query: journalQuery,
    input: 'journal query',
    answer: z.strictObject({ entries: z.array(journalEntrySchema) }).meta({ id: 'Journal' }),
    // The query as it came in a URL, or from a client (which sends a Date as ISO 8601).
    handle: (deps, { query }) => ({ entries: deps.state.journal.list(query).map(journalView) }),
  }),
  clearJournal: defineOperation({
    method: 'delete',
    path: '/_emulator/journal',
    summary: 'Empty the journal',
    answer: okSchema,
    handle: (deps) => okAfter(deps.state.journal.clear()),
  }),
  journalEntry: defineOperation({
    method: 'get',
    path: '/_emulator/journal/:id',
    summary: 'One journal entry with its request and response bodies (each cut at 4 KB)',
    answer: journalEntryEnvelopeSchema,
    errors: ['journal_entry_not_found'],
    handle: (deps, { params: { id } }) => {
      // Anything but digits names no entry, and the message repeats the id as sent (not NaN).
      const entry = /^\d{1,15}$/.test(id) ? deps.state.journal.get(Number(id)) : undefined;
      if (!entry)
        throw new PlaneError(
          'journal_entry_not_found',
          `No journal entry '${id}': it never existed, or the journal was cleared or trimmed. List entries with GET /_emulator/journal.`,
        );
      return { entry: journalEntryView(entry) };
    },
  }),
};
