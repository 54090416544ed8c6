// /_emulator/journal, declared once (registry/operation.ts).
import { defineOperation } from '../registry/operation.js';
import { CONTROL_SCHEMAS as S } from '../openapi/components.js';
import { journalQuery } from '../inputs.js';
import { clearJournal, readJournal, readJournalEntry, type JournalQuery } from './journal-operations.js';

export const JOURNAL_API = {
  journal: defineOperation({
    method: 'get',
    path: '/_emulator/journal',
    summary: 'The /v1/media requests the emulator received',
    query: journalQuery,
    answer: S.Journal,
    handle: (deps, { query }) => ({ entries: readJournal(deps, query as JournalQuery) }),
  }),
  clearJournal: defineOperation({
    method: 'delete',
    path: '/_emulator/journal',
    summary: 'Empty the journal',
    answer: S.Ok,
    handle: (deps) => clearJournal(deps),
  }),
  journalEntry: defineOperation({
    method: 'get',
    path: '/_emulator/journal/:id',
    summary: 'One journal entry with its request and response bodies (each cut at 4 KB)',
    answer: S.JournalEntryEnvelope,
    errors: ['journal_entry_not_found'],
    handle: (deps, { params }) => ({ entry: readJournalEntry(deps, params.id) }),
  }),
};
