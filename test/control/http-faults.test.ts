// HTTP-level actions through supertest: error statuses with the envelope and Retry-After, latency, and no charge for a refused request.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { controlled, idem, submission } from '../helpers/controlled-emulator.js';
import { runtimeOf } from '../../src/testing.js';

const elapsed = async <T>(run: () => Promise<T>) => {
  const started = performance.now();
  const result = await run();
  return { result, ms: performance.now() - started };
};

describe('status action', () => {
  it.each([
    [429, 'rate_limited'],
    [500, 'internal_error'],
    [502, 'bad_gateway'],
    [503, 'service_unavailable'],
    [504, 'gateway_timeout'],
  ])('answers %i with the error envelope and code %s', async (status, code) => {
    const { control, api } = controlled();
    const rule = await control.faults.add({ action: { type: 'status', status } });
    const res = await api.get('/v1/media/models');
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.error).toMatchObject({ code, message: expect.any(String) });
    expect(res.headers['x-emulator-fault']).toBe(rule.id);
  });

  it('sends Retry-After (and retry_after_seconds) when asked, and 1 s by default on a 429', async () => {
    const { control, api } = controlled();
    await control.faults.add({
      times: 1,
      action: {
        type: 'status',
        status: 503,
        retry_after: '30s',
        code: 'maintenance',
        message: 'Down for maintenance.',
      },
    });
    await control.faults.add({ times: 1, action: { type: 'status', status: 429 } });
    await control.faults.add({ times: 1, action: { type: 'status', status: 500 } });
    const first = await api.get('/v1/media/models');
    expect(first.headers['retry-after']).toBe('30');
    expect(first.body).toEqual({
      error: { code: 'maintenance', message: 'Down for maintenance.', retry_after_seconds: 30 },
    });
    const second = await api.get('/v1/media/models');
    expect(second.headers['retry-after']).toBe('1');
    const third = await api.get('/v1/media/models');
    expect(third.headers['retry-after']).toBeUndefined();
    expect(third.body.error).not.toHaveProperty('retry_after_seconds');
  });

  it('never lets a refused submission charge, create a generation or record its Idempotency-Key', async () => {
    const { control, api, emulator } = controlled();
    await control.faults.add({ match: { method: 'POST' }, times: 3, action: { type: 'status', status: 503 } });
    const before = await control.accounts();
    for (let i = 0; i < 3; i++) expect((await api.submit(submission(), idem('same'))).status).toBe(503);
    expect(await control.accounts()).toEqual(before);
    expect(await control.generations()).toEqual([]);
    expect(
      runtimeOf(emulator)
        .context()
        .ledger.list({ generationId: undefined })
        .filter((e) => e.type === 'charge'),
    ).toEqual([]);
    const accepted = await api.submit(submission(), idem('same'));
    expect(accepted.status).toBe(202);
    expect(accepted.body.replayed).toBe(false);
  });
});

describe('latency action (short real delays: here the behaviour is time)', () => {
  it('delays by a fixed time, then the request goes through', async () => {
    const { control, api } = controlled();
    await control.faults.add({ action: { type: 'latency', ms: 120 } });
    const { result, ms } = await elapsed(() => api.get('/v1/media/models'));
    expect(result.status).toBe(200);
    expect(ms).toBeGreaterThanOrEqual(110);
  });

  it('draws uniform and lognormal delays within their bounds', async () => {
    const { control, api } = controlled();
    const uniform = await control.faults.add({
      times: 1,
      action: { type: 'latency', distribution: 'uniform', min_ms: 60, max_ms: 90 },
    });
    await control.faults.add({
      times: 1,
      action: { type: 'latency', distribution: 'lognormal', median_ms: 40, sigma: 0.3, max_ms: 120 },
    });
    const a = await elapsed(() => api.get('/v1/media/models'));
    expect(a.result.headers['x-emulator-fault']).toBe(uniform.id);
    expect(a.ms).toBeGreaterThanOrEqual(55);
    const b = await elapsed(() => api.get('/v1/media/models'));
    expect(b.result.status).toBe(200);
    expect(b.ms).toBeLessThan(1000);
  });

  it('puts latency in front of another action: a 504 after a delay', async () => {
    const { control, api } = controlled();
    await control.faults.add({ action: { type: 'status', status: 504, latency: { ms: 100 } } });
    const { result, ms } = await elapsed(() => api.get('/v1/media/models'));
    expect(result.status).toBe(504);
    expect(ms).toBeGreaterThanOrEqual(90);
  });

  it('journals the latency it added', async () => {
    const { control, api } = controlled();
    const rule = await control.faults.add({ action: { type: 'latency', ms: 80 } });
    await api.get('/v1/media/models');
    const [entry] = await control.journal();
    expect(entry).toMatchObject({ status: 200, fault_id: rule.id });
    expect(entry.latency_ms).toBeGreaterThanOrEqual(75);
  });
});

describe('latency past what a Node timer holds', () => {
  it('keeps a 30-day latency waiting instead of answering after 1 ms', async () => {
    const { control, emulator, api } = controlled();
    await control.faults.add({ match: { route: '/v1/media/models' }, action: { type: 'latency', ms: '30d' } });
    let answered = false;
    const held = request(emulator.app).get('/v1/media/models').set('Authorization', `Bearer ${emulator.apiKey}`);
    held.then(
      () => {
        answered = true;
      },
      () => undefined,
    );
    // Other exchanges until the rule has seen the held request, then two more: each takes well over 1 ms.
    while ((await control.faults.list())[0].matched === 0) await api.get('/v1/media/usage');
    expect((await api.get('/v1/media/usage')).status).toBe(200);
    expect((await api.get('/v1/media/usage')).status).toBe(200);
    expect(answered).toBe(false);
    held.abort();
  });
});

describe('dribble action through supertest', () => {
  it('sends the whole body, slowly', async () => {
    const { control, emulator } = controlled();
    await control.faults.add({ action: { type: 'dribble', chunks: 4, duration: '150ms' } });
    const { result, ms } = await elapsed(() =>
      request(emulator.app).get('/v1/media/models').set('Authorization', `Bearer ${emulator.apiKey}`),
    );
    expect(result.status).toBe(200);
    expect(result.body.models.length).toBeGreaterThan(0);
    expect(ms).toBeGreaterThanOrEqual(140);
    // The journal keeps the answer as it went out, piece by piece, not as the route handed it over.
    const [entry] = await control.journal();
    const detail = await control.journalEntry(entry.id);
    // The model list is longer than the 4 KB kept: its head, cut at the cap, and its whole size.
    expect(detail.response_body).toMatchObject({ bytes: Buffer.byteLength(result.text), truncated: true });
    expect(Buffer.byteLength(detail.response_body!.text)).toBe(4096);
    expect(result.text.startsWith(detail.response_body!.text)).toBe(true);
  });
});
