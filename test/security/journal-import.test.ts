// The journal section of an import is checked like the rest of the document: each entry's members typed and cut as
// recording cuts them, ids growing, at most the journal's capacity and byte budget. A bad one is 422 invalid_state naming the field,
// nothing changes, and the journal and the console keep answering.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { parseJournal } from '../../src/emulation/journal/journal-schema.js';
import { client, MODEL_A, makeEmulator } from '../helpers/emulator.js';

type State = Record<string, any>;

async function exported() {
  const emulator = makeEmulator({ ffmpegPath: false });
  expect((await client(emulator).get('/v1/media/models')).status).toBe(200);
  const state = (await request(emulator.app).get('/_emulator/state')).body as State;
  expect(state.control.journal.entries).toHaveLength(1);
  return { emulator, state };
}

const entry = (id: number) => ({ id, at: 0, method: 'GET', path: '/v1/media/models', status: 200 });

const BAD: [string, (s: State) => void, string][] = [
  [
    'entries without their members',
    (s) => (s.control.journal = { seq: 2, entries: [{ id: 1 }, { id: 2, path: 5, at: 'y' }] }),
    'control.journal.entries[0].at',
  ],
  ['a path that is not text', (s) => (s.control.journal.entries[0].path = 5), 'control.journal.entries[0].path'],
  ['a date that is not a number', (s) => (s.control.journal.entries[0].at = 'y'), 'control.journal.entries[0].at'],
  [
    'a path longer than recording keeps',
    (s) => (s.control.journal.entries[0].path = '/x'.repeat(600)),
    'control.journal.entries[0].path: must be at most 1024 characters',
  ],
  [
    'a query longer than recording keeps',
    (s) => (s.control.journal.entries[0].query = 'q'.repeat(1025)),
    'control.journal.entries[0].query: must be at most 1024 characters',
  ],
  [
    'a body text longer than recording keeps',
    (s) =>
      (s.control.journal.entries[0].requestBody = {
        contentType: 'text/plain',
        bytes: 5000,
        text: 'y'.repeat(5000),
        truncated: false,
      }),
    'control.journal.entries[0].requestBody.text: must be at most 4096 characters',
  ],
  [
    'ids that do not grow',
    (s) => (s.control.journal = { seq: 2, entries: [entry(2), entry(2)] }),
    'control.journal.entries[1].id: must be a whole number greater than the entry before it (2)',
  ],
  [
    'more entries than the journal keeps',
    (s) => (s.control.journal = { seq: 10_001, entries: Array.from({ length: 10_001 }, (_, i) => entry(i + 1)) }),
    'control.journal.entries: 10,001 entries; the journal keeps at most 10,000: import the newest ones',
  ],
  [
    'entries weighing more than the journal keeps',
    (s) =>
      (s.control.journal = {
        seq: 2_000,
        entries: Array.from({ length: 2_000 }, (_, i) => ({
          ...entry(i + 1),
          path: `/v1/media/${'p'.repeat(1000)}`,
          query: 'q'.repeat(1024),
        })),
      }),
    'control.journal.entries: 4,566,000 bytes as listed; the journal keeps at most 4,194,304: import the newest ones',
  ],
];

describe('an import with a journal recording could not have written', () => {
  it.each(BAD)(
    'refuses %s with 422 invalid_state naming the field, and keeps the journal',
    async (_what, spoil, text) => {
      const { emulator, state } = await exported();
      const spoilt = structuredClone(state);
      spoil(spoilt);
      const res = await request(emulator.app).put('/_emulator/state').send(spoilt);
      expect([res.status, res.body.error?.code]).toEqual([422, 'invalid_state']);
      expect(res.body.error.message).toContain(text);
      expect(res.body.error.problems[0].field).toBe(text.split(':')[0]);
      for (const path of [
        '/_emulator/journal',
        '/_emulator/journal?path=/v1*',
        '/_emulator/journal/1',
        '/_emulator/summary',
      ])
        expect([path, (await request(emulator.app).get(path)).status]).toEqual([path, 200]);
      expect((await request(emulator.app).get('/_emulator/state')).body.control.journal).toEqual(state.control.journal);
    },
  );
});

describe('an import with a journal at the bounds', () => {
  it('imports the journal capacity whole, drops unknown members, and continues numbering after the last id', async () => {
    const { emulator, state } = await exported();
    const full = structuredClone(state);
    full.control.journal = {
      seq: 0,
      entries: Array.from({ length: 10_000 }, (_, i) => ({ ...entry(i + 1), extra: 'x'.repeat(100) })),
    };
    full.control.journal.entries[9_999].path = '/x'.repeat(512);
    expect((await request(emulator.app).put('/_emulator/state').send(full)).status).toBe(200);
    const last = (await request(emulator.app).get('/_emulator/journal/10000')).body.entry;
    expect(last).toMatchObject({ id: 10_000, path: '/x'.repeat(512) });
    expect(last).not.toHaveProperty('extra');
    await client(emulator).get('/v1/media/models');
    const newest = (await request(emulator.app).get('/_emulator/journal?limit=1')).body.entries;
    expect(newest.map((e: { id: number }) => e.id)).toEqual([10_001]);
  });

  it('a start from the store of record keeps its newest entries past the capacity instead of refusing them', () => {
    const stored = { seq: 5, entries: [1, 2, 3, 4, 5].map(entry) };
    expect(() => parseJournal(stored, 'import', 3)).toThrow(/5 entries; the journal keeps at most 3/);
    expect(parseJournal(stored, 'store', 3).entries.map((e) => e.id)).toEqual([3, 4, 5]);
  });

  it('records a long content type cut as it imports it, so the export imports again', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const type = `application/json; x=${'a'.repeat(2_000)}`;
    const sent = await client(emulator)
      .post('/v1/media/estimate', undefined, { 'content-type': type })
      .send(JSON.stringify({ model_slug: MODEL_A, prompt: 'x' }));
    expect(sent.status).toBeLessThan(500);
    const state = (await request(emulator.app).get('/_emulator/state')).body as State;
    expect(state.control.journal.entries[0].requestBody.contentType).toBe(type.slice(0, 1024));
    expect((await request(emulator.app).put('/_emulator/state').send(state)).status).toBe(200);
  });
});
