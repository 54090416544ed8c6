// The control views behind the console: summary, catalogue, detail, expire links, advance to next, journal entries.
import { describe, expect, it } from 'vitest';
import { BODY_CAP, BODY_WINDOW, captureBody, Journal } from '../../src/emulation/journal/journal-store.js';
import { controlled, idem, submission } from '../helpers/controlled-emulator.js';

const fileOf = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');

describe('console views', () => {
  it('summarises a filtered, searched and paged list with counts, in one answer', async () => {
    const { api, control } = controlled();
    for (let n = 1; n <= 7; n++) await api.submit(submission({ prompt: `poster (${n}) of a fox` }), idem(n));
    await api.submit(submission({ prompt: 'a whale' }), idem(8));
    const page = await control.summary({ q: 'FOX', limit: 3, offset: 3 });
    expect(page.generations).toMatchObject({ total: 7, offset: 3, limit: 3, all: 8, counts: { pending: 7 } });
    expect(page.generations.items.map((g) => g.prompt)).toEqual([
      'poster (4) of a fox',
      'poster (3) of a fox',
      'poster (2) of a fox',
    ]);
    // The search is plain text: brackets are not a pattern.
    expect((await control.summary({ q: '(1)' })).generations.total).toBe(1);
    expect((await control.summary({ q: 'gen_000008' })).generations.items[0].prompt).toBe('a whale');
    expect((await control.summary({ status: 'completed' })).generations.total).toBe(0);
    // Any case, beyond ASCII too (the store's query folds as JavaScript does, not as SQLite's lower()).
    await api.submit(submission({ prompt: 'ÉCLAIR AU CAFÉ' }), idem(9));
    expect((await control.summary({ q: 'éclair au café' })).generations.items.map((g) => g.prompt)).toEqual([
      'ÉCLAIR AU CAFÉ',
    ]);
    expect((await control.summary({ model: 'no-such-model' })).generations).toMatchObject({ total: 0, all: 9 });
    const res = await api.get('/_emulator/summary?limit=500');
    expect([res.status, res.body.error.code]).toEqual([422, 'invalid_control_request']);
  });

  it('gives a generation detail: timeline on the emulator clock, next move, ledger, link states, the creating request', async () => {
    const { api, control } = controlled({ clockStart: '2026-05-01T12:00:00Z' });
    const { id } = (await api.submit(submission(), idem(1))).body.generation;
    let detail = await control.detail(id);
    expect(detail.timeline).toEqual([{ status: 'pending', at: '2026-05-01T12:00:00.000Z' }]);
    expect(detail.next).toMatchObject({ status: 'running', at: '2026-05-01T12:00:01.000Z', manual_only: true });
    expect(detail.request).toMatchObject({
      method: 'POST',
      path: '/v1/media/generations',
      status: 202,
      generation_id: id,
    });
    await control.waitFor(id, 'completed');
    detail = await control.detail(id);
    expect(detail.timeline.map((t) => t.status)).toEqual(['pending', 'running', 'completed']);
    expect(detail.next).toBeNull();
    expect(detail.ledger.map((e) => [e.type, e.amount])).toEqual([['charge', 4]]);
    expect(detail.links).toEqual([expect.objectContaining({ index: 0, state: 'ok' })]);
  });

  it('expires every link handed out so far, and the next read signs a fresh one', async () => {
    const { api, control } = controlled();
    const { id } = (await api.submit(submission(), idem(1))).body.generation;
    await control.waitFor(id, 'completed');
    const before = (await api.get(`/v1/media/generations/${id}`)).body.generation.outputs[0].url;
    expect((await api.raw.get(fileOf(before))).status).toBe(200);
    const detail = await control.expireLinks(id);
    expect(detail.links[0].state).toBe('ok');
    const refused = await api.raw.get(fileOf(before));
    expect([refused.status, refused.body.error.code]).toEqual([403, 'url_expired']);
    const after = (await api.get(`/v1/media/generations/${id}`)).body.generation.outputs[0].url;
    expect(after).not.toBe(before);
    expect((await api.raw.get(fileOf(after))).status).toBe(200);
    const pending = (await api.submit(submission(), idem(2))).body.generation.id;
    const res = await api.post(`/_emulator/generations/${pending}/expire-links`);
    expect([res.status, res.body.error.code]).toEqual([409, 'generation_not_completed']);
  });

  it('advances exactly to the next scheduled transition, and says when nothing is scheduled', async () => {
    const { api, control } = controlled({ clockStart: '2026-05-01T12:00:00Z' });
    const res = await api.post('/_emulator/clock/advance-to-next');
    expect([res.status, res.body.error.code]).toEqual([409, 'nothing_scheduled']);
    const { id } = (await api.submit(submission({ prompt: 'x [emulator:pending=90s]' }), idem(1))).body.generation;
    const moved = await control.advanceToNext();
    expect(moved).toMatchObject({ now: '2026-05-01T12:01:30.000Z', transitions: 1 });
    expect((await control.generation(id)).status).toBe('running');
  });

  it('shows the five soonest moves of all the waiting generations, soonest first, ties in the order they run', async () => {
    const { api, control } = controlled({ clockStart: '2026-05-01T12:00:00Z' });
    // Due in 80 s, 70 s, ... 10 s, and a second one at 10 s: the newest are the soonest, and more wait than are shown.
    const ids: string[] = [];
    for (let n = 1; n <= 9; n++) {
      const prompt = `x [emulator:pending=${Math.max(90 - n * 10, 10)}s]`;
      ids.push((await api.submit(submission({ prompt }), idem(n))).body.generation.id);
    }
    const { upcoming } = await control.summary();
    expect(upcoming.map((m) => [m.generation_id, m.status, m.at.slice(11, 19)])).toEqual([
      [ids[7], 'running', '12:00:10'],
      [ids[8], 'running', '12:00:10'],
      [ids[6], 'running', '12:00:20'],
      [ids[5], 'running', '12:00:30'],
      [ids[4], 'running', '12:00:40'],
    ]);
  });

  it('keeps request and response bodies cut at 4 KB with their sizes, and why a fault rule matched', async () => {
    const { api, control } = controlled();
    await control.faults.add({
      id: 'second',
      match: { method: 'POST', route: '/v1/media/generations', prompt: '/fox/' },
      after: 1,
      times: 1,
      action: { type: 'status', status: 503 },
    });
    await api.submit(submission({ prompt: 'a fox' }), idem(1));
    await api.submit(submission({ prompt: 'a fox' }), idem(2));
    for (let n = 3; n < 40; n++) await api.submit(submission({ prompt: `scene ${n}` }), idem(n));
    const listed = await api.get('/v1/media/generations?limit=50');
    const entries = await control.journal();
    const faulted = await control.journalEntry(entries[1].id);
    expect(faulted).toMatchObject({ status: 503, fault_id: 'second' });
    expect(faulted.fault_reason).toBe(
      'method is POST · path /v1/media/generations matches route "/v1/media/generations" · prompt matches /fox/ · match 2, after skipping the first 1 · firing 1 of 1',
    );
    const first = await control.journalEntry(entries[0].id);
    expect(JSON.parse(first.request_body!.text)).toMatchObject({ prompt: 'a fox' });
    expect(JSON.parse(first.response_body!.text).generation.prompt).toBe('a fox');
    const list = await control.journalEntry(entries.at(-1)!.id);
    expect(list.response_body).toMatchObject({ truncated: true, content_type: expect.stringMatching(/json/) });
    expect(list.response_body!.bytes).toBe(Buffer.byteLength(listed.text));
    expect(list.response_body!.bytes).toBeGreaterThan(BODY_CAP);
    expect(listed.text.startsWith(list.response_body!.text)).toBe(true);
    expect(Buffer.byteLength(list.response_body!.text)).toBeLessThanOrEqual(BODY_CAP);
    const missing = await api.get('/_emulator/journal/99999');
    expect([missing.status, missing.body.error.code]).toEqual([404, 'journal_entry_not_found']);
    const notANumber = await api.get('/_emulator/journal/abc');
    expect([notANumber.status, notANumber.body.error.code]).toEqual([404, 'journal_entry_not_found']);
    expect(notANumber.body.error.message).toContain("No journal entry 'abc'");
  });

  it('keeps bodies only on the newest entries, so the journal’s memory stays bounded', () => {
    const journal = new Journal();
    const body = captureBody('x'.repeat(10_000), 'text/plain');
    expect(body).toMatchObject({ bytes: 10_000, truncated: true });
    expect(body.text.length).toBe(BODY_CAP);
    for (let n = 0; n <= BODY_WINDOW; n++)
      journal.record({
        at: n,
        method: 'GET',
        path: '/v1/media/models',
        keyId: 1,
        idempotencyKey: null,
        status: 200,
        latencyMs: 1,
        faultId: null,
        requestBody: body,
        responseBody: body,
      });
    const all = journal.list();
    expect(all[0].responseBody).toBeNull();
    expect(all[1].responseBody).toEqual(body);
  });

  it('lists models, failure codes, marker examples and scenarios with their steps and rules', async () => {
    const { control } = controlled();
    const c = await control.catalogue();
    expect(c.models.map((m) => m.slug)).toContain('motion-lite-v1');
    expect(c.failure_codes.map((f) => f.code)).toContain('content_policy');
    expect(c.markers.map((m) => m.marker)).toEqual(
      expect.arrayContaining(['[emulator:expired-urls]', '[emulator:expired-urls=once]']),
    );
    expect(c.scenarios.find((s) => s.name === 'rate-limited')).toMatchObject({
      description: expect.stringContaining('429'),
      faults: [expect.objectContaining({ id: 'rate-limit-429' })],
    });
  });
});
