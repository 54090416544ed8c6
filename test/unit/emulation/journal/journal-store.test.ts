// Unit tests of the journal: filters, the bounded capacity and byte budget, and snapshots that keep ids counting on.
import { describe, expect, it } from 'vitest';
import { journalQuery } from '../../../../src/emulation/inputs.js';
import { entryBytes } from '../../../../src/emulation/journal/entry-bytes.js';
import {
  BODY_CAP,
  BODY_WINDOW,
  captureBody,
  JOURNAL_BYTE_BUDGET,
  JOURNAL_TEXT_CAP,
  Journal,
  type JournalEntry,
} from '../../../../src/emulation/journal/journal-store.js';
import { journalView } from '../../../../src/emulation/views.js';

const entry = (over: Partial<Omit<JournalEntry, 'id'>> = {}): Omit<JournalEntry, 'id'> => ({
  at: 0,
  method: 'POST',
  path: '/v1/media/generations',
  keyId: 1,
  idempotencyKey: null,
  status: 202,
  latencyMs: 1,
  faultId: null,
  ...over,
});

describe('Journal', () => {
  it('filters by exact path, path prefix, method, status class, time and fault', () => {
    const journal = new Journal();
    journal.record(entry());
    journal.record(entry({ method: 'GET', path: '/v1/media/models', status: 200, at: 5 }));
    journal.record(entry({ status: 503, at: 10, faultId: 'f1' }));
    expect(journal.list({ path: '/v1/media/models' }).map((e) => e.id)).toEqual([2]);
    expect(journal.list({ path: '/v1/media/*' })).toHaveLength(3);
    expect(journal.list({ method: 'get' }).map((e) => e.id)).toEqual([2]);
    expect(journal.list({ status: '5xx' }).map((e) => e.id)).toEqual([3]);
    expect(journal.list({ since: 5 }).map((e) => e.id)).toEqual([2, 3]);
    expect(journal.list({ fault_id: 'f1' }).map((e) => e.id)).toEqual([3]);
    expect(journal.list({ limit: 1 }).map((e) => e.id)).toEqual([3]);
  });

  it('takes a status filter that is a status or a class only: the journal query refuses any other', () => {
    for (const status of ['bad', '6xx', '1234', ' 503', 1000])
      expect(journalQuery.safeParse({ status }).success, String(status)).toBe(false);
    for (const status of ['503', '5XX', '', 0, 999]) expect(journalQuery.safeParse({ status }).success).toBe(true);
  });

  it('restores older entries without their bodies, so a restart keeps bodies only on the newest BODY_WINDOW', () => {
    const body = captureBody('{"a":1}', 'application/json');
    const entries = Array.from({ length: BODY_WINDOW + 2 }, (_, i) => ({
      ...entry({ at: i }),
      id: i + 1,
      requestBody: body,
      responseBody: body,
    }));
    const journal = new Journal();
    journal.restore({ seq: entries.length, entries });
    const restored = journal.snapshot().entries;
    expect(restored.filter((e) => e.requestBody || e.responseBody).map((e) => e.id)).toEqual(
      entries.slice(2).map((e) => e.id),
    );
    expect(restored[0]).toMatchObject({ id: 1, at: 0, requestBody: null, responseBody: null });
  });

  it('keeps only the newest entries up to its capacity', () => {
    const journal = new Journal(3);
    for (let i = 0; i < 10; i++) journal.record(entry({ at: i }));
    expect(journal.size).toBe(3);
    expect(journal.list().map((e) => e.at)).toEqual([7, 8, 9]);
  });

  it('keeps only the newest entries that fit its byte budget, whatever their number', () => {
    const journal = new Journal(100, 10_000);
    const long = (i: number) => entry({ at: i, path: `/v1/media/${'p'.repeat(900)}`, query: `q=${i}` });
    const each = entryBytes(long(0));
    for (let i = 0; i < 50; i++) journal.record(long(i));
    const kept = Math.floor(10_000 / each);
    expect(journal.size).toBe(kept);
    expect(journal.byteSize).toBeLessThanOrEqual(10_000);
    expect(journal.list().map((e) => e.at)).toEqual(Array.from({ length: kept }, (_, i) => 50 - kept + i));
    expect(journal.firstId).toBe(50 - kept + 1);
    // Short entries again: as many as fit, up to the capacity.
    for (let i = 50; i < 300; i++) journal.record(entry({ at: i }));
    expect(journal.size).toBe(Math.min(100, Math.floor(10_000 / entryBytes(entry()))));
    expect(journal.list().at(-1)?.at).toBe(299);
  });

  it('restores at most its budget, the newest entries, from a store written with a larger one', () => {
    const big = new Journal(1000, 1_000_000);
    for (let i = 0; i < 40; i++) big.record(entry({ at: i, idempotencyKey: 'k'.repeat(1000) }));
    const small = new Journal(1000, 10_000);
    small.restore(big.snapshot());
    expect(small.byteSize).toBeLessThanOrEqual(10_000);
    expect(small.list().at(-1)?.at).toBe(39);
    expect(small.record(entry()).id).toBe(41);
  });

  it('counts at least the bytes an entry adds to the list, for plain, escaped, non-ASCII and missing texts', () => {
    const widest = { id: 2 ** 31 - 1, at: Date.UTC(9999, 11, 31, 23, 59, 59, 999), keyId: 2 ** 31 - 1, status: 999 };
    const texts = ['', 'a'.repeat(JOURNAL_TEXT_CAP), '"\\'.repeat(300), 'é€😀'.repeat(200), '\u0001\t'.repeat(400)];
    for (const text of texts)
      for (const latencyMs of [0, 253_402_300_799_999.9, 1 / 3e7]) {
        const e: JournalEntry = {
          ...entry({ ...widest, latencyMs, path: text, query: text, faultReason: text, generationId: null }),
          id: widest.id,
          idempotencyKey: text || null,
        };
        // Its share of `{"entries":[...]}`: its JSON and the comma after it.
        const listed = Buffer.byteLength(JSON.stringify(journalView(e))) + 1;
        expect(entryBytes(e)).toBeGreaterThanOrEqual(listed);
        // And not much more: the frame's room for wider numbers.
        expect(entryBytes(e) - listed).toBeLessThanOrEqual(48);
      }
  });

  it('holds, at its default budget, a full capacity of ordinary entries', () => {
    const journal = new Journal();
    const ordinary = entry({ idempotencyKey: 'retry-key-0001-abcd', generationId: 'gen_mbz3kq9x0a1b2c3d4e5f' });
    for (let i = 0; i < 10_000; i++) journal.record(ordinary);
    expect(journal.size).toBe(10_000);
    expect(journal.byteSize).toBeLessThan(JOURNAL_BYTE_BUDGET);
  });

  it('continues numbering after a restore, and after a clear', () => {
    const journal = new Journal();
    journal.record(entry());
    journal.record(entry());
    const copy = new Journal();
    copy.restore(journal.snapshot());
    expect(copy.record(entry()).id).toBe(3);
    copy.clear();
    expect(copy.list()).toEqual([]);
    expect(copy.record(entry()).id).toBe(4);
  });

  it('keeps a body up to BODY_CAP bytes whole and counts UTF-8 bytes, not characters, when it cuts one', () => {
    const short = captureBody('é'.repeat(BODY_CAP / 2), 'application/json');
    expect(short).toEqual({
      contentType: 'application/json',
      bytes: BODY_CAP,
      text: 'é'.repeat(BODY_CAP / 2),
      truncated: false,
    });
    const long = captureBody('é'.repeat(BODY_CAP / 2 + 1), null);
    expect([long.bytes, long.truncated, Buffer.byteLength(long.text)]).toEqual([BODY_CAP + 2, true, BODY_CAP]);
    expect(captureBody(Buffer.from('{"a":1}'), null).text).toBe('{"a":1}');
  });
});
