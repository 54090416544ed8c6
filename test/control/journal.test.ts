// The request journal: every /v1/media request with time, method, path, key, Idempotency-Key, status, latency and fault; filters; clearing.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { controlled, idem, submission } from '../helpers/controlled-emulator.js';

describe('journal', () => {
  it('records every /v1/media request and nothing else', async () => {
    const { emulator, api, control } = controlled({ clockStart: '2026-05-01T12:00:00Z' });
    await api.get('/v1/media/models');
    await api.submit(submission(), idem(1));
    await request(emulator.app).get('/v1/media/usage');
    await api.submit({ model_slug: 'still-sketch-v1' }, idem(2));
    await request(emulator.app).get('/_emulator/health');
    await api.get('/openapi.json');
    const entries = await control.journal();
    expect(entries.map((e) => [e.method, e.path, e.status, e.key_id, e.idempotency_key])).toEqual([
      ['GET', '/v1/media/models', 200, 1, null],
      ['POST', '/v1/media/generations', 202, 1, idem(1)],
      ['GET', '/v1/media/usage', 401, null, null],
      ['POST', '/v1/media/generations', 422, 1, idem(2)],
    ]);
    expect(entries.map((e) => e.id)).toEqual([1, 2, 3, 4]);
    for (const e of entries) {
      expect(e.at).toBe('2026-05-01T12:00:00.000Z');
      expect(e.latency_ms).toBeGreaterThanOrEqual(0);
      expect(e.fault_id).toBeNull();
    }
  });

  it('keeps at most 1,024 characters of a path, a query and an Idempotency-Key, which a client can make 16 KB', async () => {
    const { emulator, control } = controlled();
    const long = 'a'.repeat(4000);
    const res = await request(emulator.app).get(`/v1/media/${long}?q=${long}`).set('Idempotency-Key', `k${long}`);
    expect([res.status, res.body.error.code]).toEqual([404, 'route_not_found']);
    const [entry] = await control.journal();
    expect([entry.path.length, entry.query.length, entry.idempotency_key?.length]).toEqual([1024, 1024, 1024]);
    expect(entry.path).toBe(`/v1/media/${long}`.slice(0, 1024));
    expect(entry.idempotency_key).toBe(`k${long}`.slice(0, 1024));
  });

  it('filters by path (exact or prefix*), method, status (exact or class), since, fault and limit', async () => {
    const { emulator, api, control } = controlled({ clockStart: '2026-05-01T12:00:00Z' });
    const rule = await control.faults.add({
      match: { route: '/v1/media/usage' },
      action: { type: 'status', status: 503 },
    });
    await api.get('/v1/media/models');
    const id = (await api.submit(submission(), idem(1))).body.generation.id;
    await control.advance('1m');
    await api.get(`/v1/media/generations/${id}`);
    await api.get('/v1/media/usage');
    await api.get('/v1/media/generations/gen_missing');
    const paths = (q: object) => control.journal(q).then((es) => es.map((e) => `${e.method} ${e.path} ${e.status}`));
    expect(await paths({ path: '/v1/media/generations' })).toEqual(['POST /v1/media/generations 202']);
    expect(await paths({ path: '/v1/media/generations*', method: 'get' })).toEqual([
      `GET /v1/media/generations/${id} 200`,
      'GET /v1/media/generations/gen_missing 404',
    ]);
    expect(await paths({ status: '4xx' })).toEqual(['GET /v1/media/generations/gen_missing 404']);
    expect(await paths({ status: 503 })).toEqual(['GET /v1/media/usage 503']);
    expect(await paths({ fault_id: rule.id })).toEqual(['GET /v1/media/usage 503']);
    expect(await paths({ since: '2026-05-01T12:00:30Z' })).toHaveLength(3);
    expect(await paths({ since: new Date('2026-05-01T12:01:00Z'), limit: 1 })).toEqual([
      'GET /v1/media/generations/gen_missing 404',
    ]);

    const http = await request(emulator.app)
      .get('/_emulator/journal')
      .query({ path: '/v1/media/generations*', status: '2xx', limit: '5' });
    expect(http.body.entries.map((e: { status: number }) => e.status)).toEqual([202, 200]);
    const bad = await request(emulator.app).get('/_emulator/journal').query({ status: 'lots' });
    expect([bad.status, bad.body.error.code]).toEqual([422, 'invalid_control_request']);
  });

  it('reads `since` as the document says, an RFC 3339 date-time or milliseconds as digits, and refuses anything else', async () => {
    const { emulator, api } = controlled({ clockStart: '2026-05-01T12:00:00Z' });
    await api.get('/v1/media/models');
    const since = (value: string) => request(emulator.app).get('/_emulator/journal').query({ since: value });
    for (const ok of [
      '2026-05-01T12:00:00Z',
      '2026-05-01T14:00:00.000+02:00',
      String(Date.parse('2026-05-01T12:00:00Z')),
    ])
      expect((await since(ok)).body.entries, ok).toHaveLength(1);
    expect((await since('0')).body.entries).toHaveLength(1);
    // Date.parse read these once; the document never allowed them.
    for (const bad of ['2026-05-01', 'May 1 2026', '1e3', '-5', '', '2026-05-01T12:00:00']) {
      const res = await since(bad);
      expect([bad, res.status, res.body.error.code]).toEqual([bad, 422, 'invalid_control_request']);
      expect(res.body.error.problems).toEqual([
        { field: 'since', message: expect.stringMatching(/^must be one time/) },
      ]);
    }
  });

  it('is emptied by DELETE /_emulator/journal and by reset', async () => {
    const { emulator, api, control } = controlled();
    await api.get('/v1/media/models');
    expect((await request(emulator.app).delete('/_emulator/journal')).body).toEqual({ ok: true });
    expect(await control.journal()).toEqual([]);
    await api.get('/v1/media/models');
    expect(await control.journal()).toHaveLength(1);
    await control.reset();
    expect((await request(emulator.app).get('/_emulator/journal')).body).toEqual({ entries: [] });
  });
});
