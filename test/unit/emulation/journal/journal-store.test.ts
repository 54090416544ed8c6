// Unit tests of the journal: filters, the bounded capacity, and snapshots that keep ids counting on.
import { describe, expect, it } from 'vitest';
import {
  BODY_CAP,
  BODY_WINDOW,
  captureBody,
  Journal,
  type JournalEntry,
} from '../../../../src/emulation/journal/journal-store.js';

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
    expect(journal.list({ faultId: 'f1' }).map((e) => e.id)).toEqual([3]);
    expect(journal.list({ limit: 1 }).map((e) => e.id)).toEqual([3]);
  });

  it('refuses a status filter that is neither a status nor a class', () => {
    expect(() => new Journal().list({ status: 'bad' })).toThrow(
      expect.objectContaining({ code: 'invalid_control_request' }),
    );
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
