// POST /v1/media/generations: the acceptance envelope of spec 2.3/2.1, every refusal (and their order) without a
// charge, idempotency (replay, conflict, per-key scope, 24 h window, 50 concurrent over a real socket), wallet drain
// under parallel load, and the ledger invariant after a seeded random sequence of operations.
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { client, makeEmulator, MODEL_A, MODEL_B, startTestEmulator } from '../helpers/emulator.js';
import { runtimeOf } from '../../src/testing.js';

const PROMPT = 'a paper boat drifting down a rain gutter';
const START = '2025-03-10T12:00:00.000Z';
const HOUR = 3_600_000;

function addKey(
  emulator: Emulator,
  secret: string,
  extra: { modelScope?: string; dailyCreditLimit?: number; accountId?: string } = {},
) {
  const ctx = runtimeOf(emulator).context();
  return ctx.accounts.createKey(
    {
      accountId: extra.accountId ?? emulator.accountId,
      secret,
      modelScope: extra.modelScope,
      dailyCreditLimit: extra.dailyCreditLimit,
    },
    ctx.clock.now(),
  );
}

function charges(emulator: Emulator) {
  return runtimeOf(emulator)
    .context()
    .ledger.list({ accountId: emulator.accountId })
    .filter((e) => e.type === 'charge');
}

describe('acceptance envelope (spec 2.3, 2.1)', () => {
  it('answers 202 with exactly the envelope and record of the spec', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const res = await client(emulator).submit(
      { model_slug: MODEL_A, prompt: PROMPT, params: { quality: '720p' }, max_credits: 500 },
      'envelope-0001',
    );
    expect(res.status).toBe(202);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body).toStrictEqual({
      request_id: 'req_000001',
      generation: {
        id: 'gen_000001',
        request_id: 'req_000001',
        api_key_id: 1,
        kind: 'video',
        model_slug: MODEL_A,
        prompt: PROMPT,
        params: { quality: '720p' },
        texts: {},
        status: 'pending',
        created_at: '2025-03-10T12:00:00.000+00:00',
        completed_at: null,
        charged_credits: 197,
        refunded_credits: 0,
        net_credits: 197,
        billing_status: 'charged',
        outputs: [],
        error: null,
      },
      replayed: false,
      poll_after_seconds: 5,
    });
    // Member order as the spec's tables list them.
    expect(Object.keys(res.body)).toEqual(['request_id', 'generation', 'replayed', 'poll_after_seconds']);
    expect(Object.keys(res.body.generation)).toEqual([
      'id',
      'request_id',
      'api_key_id',
      'kind',
      'model_slug',
      'prompt',
      'params',
      'texts',
      'status',
      'created_at',
      'completed_at',
      'charged_credits',
      'refunded_credits',
      'net_credits',
      'billing_status',
      'outputs',
      'error',
    ]);
    expect(res.body.generation.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/);
    expect(Number.isInteger(res.body.generation.api_key_id)).toBe(true);
    expect(Number.isInteger(res.body.poll_after_seconds)).toBe(true);
  });

  it('echoes params and texts exactly as sent (not the resolved defaults), and reads back the same record', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const api = client(emulator);
    const params = { count: '2', duration: '5' };
    const texts = { title: 'Boat', caption: 'ünïcødé 🚣' };
    const res = await api.submit(
      { model_slug: MODEL_B, prompt: PROMPT, params, texts, max_credits: 5000 },
      'echo-0001',
    );
    expect(res.status).toBe(202);
    expect(res.body.generation.params).toStrictEqual(params);
    expect(res.body.generation.texts).toStrictEqual(texts);
    expect(res.body.generation.charged_credits).toBe(2544);
    const read = await api.get(`/v1/media/generations/${res.body.generation.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toStrictEqual({ generation: res.body.generation });
  });

  it('treats null params and texts as not sent: {} in the record', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await client(emulator).submit(
      { model_slug: MODEL_A, prompt: PROMPT, params: null, texts: null, refs: null, max_credits: 100 },
      'nulls-0001',
    );
    expect(res.status).toBe(202);
    expect(res.body.generation.params).toStrictEqual({});
    expect(res.body.generation.texts).toStrictEqual({});
  });

  it('uses the configured poll_after_seconds, as an integer', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, pollAfterSeconds: 2 });
    const res = await client(emulator).submit({ model_slug: MODEL_A, prompt: PROMPT, max_credits: 100 }, 'poll-0001');
    expect(res.body.poll_after_seconds).toBe(2);
  });

  it('charges once, in the ledger, with the generation and the key', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await client(emulator).submit({ model_slug: MODEL_B, prompt: PROMPT, max_credits: 763 }, 'ledger-0001');
    expect(res.status).toBe(202);
    expect(charges(emulator)).toEqual([
      expect.objectContaining({
        type: 'charge',
        amount: 763,
        generationId: res.body.generation.id,
        keyId: 1,
        modelSlug: MODEL_B,
      }),
    ]);
    expect(runtimeOf(emulator).context().ledger.balance(emulator.accountId)).toBe(1_000_000 - 763);
  });
});

describe('refusals: status and code, no charge, no generation, key not remembered', () => {
  interface Refusal {
    name: string;
    options?: Record<string, unknown>;
    key?: { modelScope?: string; dailyCreditLimit?: number };
    body: Record<string, unknown>;
    status: number;
    code: string;
    details?: Record<string, unknown>;
  }
  const refusals: Refusal[] = [
    {
      name: 'unknown model',
      body: { model_slug: 'motion-ultra-v9', prompt: PROMPT, max_credits: 100 },
      status: 404,
      code: 'model_not_found',
    },
    {
      name: 'key limited to another model',
      key: { modelScope: MODEL_B },
      body: { model_slug: MODEL_A, prompt: PROMPT, max_credits: 100 },
      status: 403,
      code: 'model_not_allowed_for_key',
    },
    {
      name: 'price over max_credits',
      body: { model_slug: MODEL_A, prompt: PROMPT, params: { quality: '720p' }, max_credits: 196 },
      status: 402,
      code: 'max_credits_exceeded',
      details: { credits: 197, max_credits: 196 },
    },
    {
      name: 'daily ceiling',
      key: { dailyCreditLimit: 87 },
      body: { model_slug: MODEL_A, prompt: PROMPT, max_credits: 100 },
      status: 429,
      code: 'daily_credit_limit_exceeded',
      details: { daily_credit_limit: 87, used_today: 0, credits: 88 },
    },
    {
      name: 'insufficient balance',
      options: { initialBalance: 762 },
      body: { model_slug: MODEL_B, prompt: PROMPT, max_credits: 1000 },
      status: 402,
      code: 'insufficient_credits',
      details: { credits: 763, wallet_balance: 762 },
    },
  ];

  it.each(refusals)('$name: $status $code', async ({ options, key, body, status, code, details }) => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START, ...options });
    const ctx = runtimeOf(emulator).context();
    const secret = key ? addKey(emulator, 'sk-media-refusal-key-01', key).secret : emulator.apiKey;
    const api = client(emulator, secret);
    const balance = ctx.ledger.balance(emulator.accountId);
    const ledgerSize = ctx.ledger.size;

    const res = await api.submit(body, 'refused-0001');
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body).toStrictEqual({
      error: {
        code,
        message: expect.any(String),
        ...(details ?? {}),
        ...(code === 'daily_credit_limit_exceeded' ? { retry_after_seconds: 43_200 } : {}),
      },
    });
    if (code === 'daily_credit_limit_exceeded') expect(res.headers['retry-after']).toBe('43200');
    expect(ctx.ledger.balance(emulator.accountId)).toBe(balance);
    expect(ctx.ledger.size).toBe(ledgerSize);
    expect(ctx.generations.size).toBe(0);
    expect(ctx.idempotency.size).toBe(0);
    expect((await client(emulator).get('/v1/media/generations')).body.generations).toEqual([]);
  });

  it('does not remember a refused request under its key: after a top-up the same key is a first submission', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, initialBalance: 10 });
    const api = client(emulator);
    const body = { model_slug: MODEL_A, prompt: PROMPT, max_credits: 100 };
    expect((await api.submit(body, 'topup-0001')).body.error.code).toBe('insufficient_credits');
    const ctx = runtimeOf(emulator).context();
    ctx.ledger.append({ type: 'funding', accountId: emulator.accountId, amount: 1000, at: ctx.clock.now() });
    const res = await api.submit(body, 'topup-0001');
    expect(res.status).toBe(202);
    expect(res.body.replayed).toBe(false);
    expect(ctx.ledger.balance(emulator.accountId)).toBe(1010 - 88);
  });

  it('allows a spend exactly equal to the balance, max_credits and the ceiling', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, initialBalance: 88 });
    const key = addKey(emulator, 'sk-media-exact-0001', { dailyCreditLimit: 88 });
    const res = await client(emulator, key.secret).submit(
      { model_slug: MODEL_A, prompt: PROMPT, max_credits: 88 },
      'exact-0001',
    );
    expect(res.status).toBe(202);
    expect(runtimeOf(emulator).context().ledger.balance(emulator.accountId)).toBe(0);
  });
});

describe('order of the submission checks', () => {
  it('schema 422 before idempotency: a bad body under a used key is a 422, not a 409', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const api = client(emulator);
    await api.submit({ model_slug: MODEL_A, prompt: PROMPT, max_credits: 100 }, 'order-0001');
    const res = await api.submit({ model_slug: MODEL_A, prompt: PROMPT, max_credits: 0 }, 'order-0001');
    expect(res.status).toBe(422);
  });

  it('idempotency before the model lookup: another body under a used key is a 409 even for an unknown model', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const api = client(emulator);
    await api.submit({ model_slug: MODEL_A, prompt: PROMPT, max_credits: 100 }, 'order-0002');
    const res = await api.submit({ model_slug: 'nope', prompt: PROMPT, max_credits: 100 }, 'order-0002');
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('idempotency_key_reused');
  });

  it('model unknown (404) before model rules (422) and before the key scope (403)', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const key = addKey(emulator, 'sk-media-order-0003', { modelScope: MODEL_B });
    const res = await client(emulator, key.secret).submit(
      { model_slug: 'nope', prompt: PROMPT, params: { bad: 'x' }, max_credits: 1 },
      'order-0003',
    );
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('model_not_found');
  });

  it('model rules (422) before ref resolution: only the rule items are reported', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await client(emulator).submit(
      { model_slug: MODEL_A, prompt: PROMPT, params: { quality: '4k' }, refs: ['upl_unknown'], max_credits: 100 },
      'order-0004',
    );
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: { type: string }) => d.type)).toEqual(['model_option_value']);
  });

  it('ref resolution (422) before the key scope (403)', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const key = addKey(emulator, 'sk-media-order-0005', { modelScope: MODEL_B });
    const res = await client(emulator, key.secret).submit(
      { model_slug: MODEL_A, prompt: PROMPT, refs: ['upl_unknown'], max_credits: 100 },
      'order-0005',
    );
    expect(res.status).toBe(422);
    expect(res.body.detail).toStrictEqual([
      {
        type: 'model_ref_unknown',
        loc: ['body', 'refs', 0],
        msg: "Unknown upload 'upl_unknown'; upload the file with POST /v1/media/uploads and pass the returned id",
        input: 'upl_unknown',
      },
    ]);
  });

  it('key scope (403) before max_credits (402)', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const key = addKey(emulator, 'sk-media-order-0006', { modelScope: MODEL_B });
    const res = await client(emulator, key.secret).submit(
      { model_slug: MODEL_A, prompt: PROMPT, max_credits: 1 },
      'order-0006',
    );
    expect(res.status).toBe(403);
  });

  it('max_credits (402) before the daily ceiling (429)', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const key = addKey(emulator, 'sk-media-order-0007', { dailyCreditLimit: 10 });
    const res = await client(emulator, key.secret).submit(
      { model_slug: MODEL_A, prompt: PROMPT, max_credits: 50 },
      'order-0007',
    );
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('max_credits_exceeded');
  });

  it('daily ceiling (429) before the balance (402)', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, initialBalance: 10 });
    const key = addKey(emulator, 'sk-media-order-0008', { dailyCreditLimit: 50 });
    const res = await client(emulator, key.secret).submit(
      { model_slug: MODEL_A, prompt: PROMPT, max_credits: 100 },
      'order-0008',
    );
    expect(res.status).toBe(429);
  });
});

describe('daily credit ceiling per UTC day on the emulator clock', () => {
  it('refuses the request that would pass the ceiling, with Retry-After until midnight UTC, and allows it again after midnight', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: '2025-03-10T23:59:00.000Z' });
    const key = addKey(emulator, 'sk-media-ceiling-0001', { dailyCreditLimit: 200 });
    const api = client(emulator, key.secret);
    const body = (n: number) => ({ model_slug: MODEL_A, prompt: `${PROMPT} ${n}`, max_credits: 100 });
    expect((await api.submit(body(1), 'ceiling-0001')).status).toBe(202);
    expect((await api.submit(body(2), 'ceiling-0002')).status).toBe(202);
    const balance = runtimeOf(emulator).context().ledger.balance(emulator.accountId);

    const refused = await api.submit(body(3), 'ceiling-0003');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.body.error).toMatchObject({
      code: 'daily_credit_limit_exceeded',
      daily_credit_limit: 200,
      used_today: 176,
      credits: 88,
      retry_after_seconds: 60,
    });
    expect(runtimeOf(emulator).context().ledger.balance(emulator.accountId)).toBe(balance);
    expect(runtimeOf(emulator).context().generations.size).toBe(2);

    // Another key of the same account has its own ceiling (none).
    expect((await client(emulator).submit(body(4), 'ceiling-0004')).status).toBe(202);

    await emulator.advance(59_999);
    expect((await api.submit(body(3), 'ceiling-0003')).status).toBe(429);
    await emulator.advance(1);
    const next = await api.submit(body(3), 'ceiling-0003');
    expect(next.status).toBe(202);
    expect(next.body.generation.created_at).toBe('2025-03-11T00:00:00.000+00:00');
  });

  it('counts net credits: a refund gives room back the same day', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const key = addKey(emulator, 'sk-media-ceiling-0002', { dailyCreditLimit: 100 });
    const api = client(emulator, key.secret);
    const first = await api.submit({ model_slug: MODEL_A, prompt: PROMPT, max_credits: 100 }, 'net-0001');
    expect(first.status).toBe(202);
    expect((await api.submit({ model_slug: MODEL_A, prompt: 'again', max_credits: 100 }, 'net-0002')).status).toBe(429);
    // Only a completed or failed generation can be refunded.
    await emulator.control.complete(first.body.generation.id);
    await emulator.control.refund(first.body.generation.id);
    expect((await api.submit({ model_slug: MODEL_A, prompt: 'again', max_credits: 100 }, 'net-0002')).status).toBe(202);
  });
});

describe('idempotency', () => {
  const body = {
    model_slug: MODEL_A,
    prompt: PROMPT,
    params: { duration: '5', quality: '720p' },
    texts: { a: '1', b: '2' },
    max_credits: 1000,
  };

  it('replays the same key and body: replayed true, same generation and request id, no new charge', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const api = client(emulator);
    const first = await api.submit(body, 'replay-0001');
    const second = await api.submit(body, 'replay-0001');
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(first.body.replayed).toBe(false);
    expect(second.body).toStrictEqual({ ...first.body, replayed: true });
    expect(charges(emulator)).toHaveLength(1);
    expect(runtimeOf(emulator).context().generations.size).toBe(1);
    expect(runtimeOf(emulator).context().ledger.balance(emulator.accountId)).toBe(
      1_000_000 - first.body.generation.charged_credits,
    );
  });

  it('compares bodies as canonical JSON: member order, nested order and whitespace do not matter', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const api = client(emulator);
    const first = await api.submit(body, 'canon-0001');
    const reordered = `{ "max_credits": 1000, "texts": {"b":"2", "a":"1"},\n "params": {"quality":"720p","duration":"5"}, "prompt": ${JSON.stringify(PROMPT)}, "model_slug": "${MODEL_A}" }`;
    const second = await api.raw
      .post('/v1/media/generations')
      .set('Authorization', `Bearer ${emulator.apiKey}`)
      .set('Idempotency-Key', 'canon-0001')
      .set('Content-Type', 'application/json')
      .send(reordered);
    expect(second.status).toBe(202);
    expect(second.body.replayed).toBe(true);
    expect(second.body.generation.id).toBe(first.body.generation.id);
    expect(charges(emulator)).toHaveLength(1);
  });

  it.each([
    ['another prompt', { ...body, prompt: 'something else' }],
    ['another param value', { ...body, params: { duration: '6', quality: '720p' } }],
    ['an extra optional member', { ...body, refs: [] }],
    ['another max_credits', { ...body, max_credits: 1001 }],
    ['another model', { ...body, model_slug: MODEL_B, params: {} }],
  ])('refuses the same key with %s: 409 idempotency_key_reused, no charge', async (_name, other) => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const api = client(emulator);
    await api.submit(body, 'conflict-0001');
    const balance = runtimeOf(emulator).context().ledger.balance(emulator.accountId);
    const res = await api.submit(other, 'conflict-0001');
    expect(res.status).toBe(409);
    expect(res.body).toStrictEqual({ error: { code: 'idempotency_key_reused', message: expect.any(String) } });
    expect(runtimeOf(emulator).context().ledger.balance(emulator.accountId)).toBe(balance);
    expect(runtimeOf(emulator).context().generations.size).toBe(1);
    // The original still replays.
    expect((await api.submit(body, 'conflict-0001')).body.replayed).toBe(true);
  });

  it('scopes keys per API key: the same Idempotency-Key under two keys makes two generations', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const other = addKey(emulator, 'sk-media-second-0001');
    const a = await client(emulator).submit(body, 'shared-0001');
    const b = await client(emulator, other.secret).submit(body, 'shared-0001');
    expect(a.body.replayed).toBe(false);
    expect(b.body.replayed).toBe(false);
    expect(a.body.generation.id).not.toBe(b.body.generation.id);
    expect(b.body.generation.api_key_id).toBe(other.id);
    expect(charges(emulator)).toHaveLength(2);
    // Each replays its own.
    expect((await client(emulator, other.secret).submit(body, 'shared-0001')).body.generation.id).toBe(
      b.body.generation.id,
    );
  });

  it('replays the original answer even when the wallet can no longer pay and the generation has moved on', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, initialBalance: 100 });
    const api = client(emulator);
    const small = { model_slug: MODEL_A, prompt: PROMPT, max_credits: 100 };
    const first = await api.submit(small, 'moved-0001');
    await emulator.advance(60_000);
    expect((await api.get(`/v1/media/generations/${first.body.generation.id}`)).body.generation.status).toBe(
      'completed',
    );
    const again = await api.submit(small, 'moved-0001');
    expect(again.status).toBe(202);
    expect(again.body).toStrictEqual({ ...first.body, replayed: true });
    expect(runtimeOf(emulator).context().ledger.balance(emulator.accountId)).toBe(12);
  });

  it('keeps a key for 24 hours of emulator time: replay just before, a new generation just after', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const api = client(emulator);
    const first = await api.submit(body, 'window-0001');
    await emulator.advance(24 * HOUR - 1);
    const replay = await api.submit(body, 'window-0001');
    expect(replay.body.replayed).toBe(true);
    expect(replay.body.generation.id).toBe(first.body.generation.id);
    await emulator.advance(2);
    const fresh = await api.submit(body, 'window-0001');
    expect(fresh.status).toBe(202);
    expect(fresh.body.replayed).toBe(false);
    expect(fresh.body.generation.id).not.toBe(first.body.generation.id);
    expect(charges(emulator)).toHaveLength(2);
  });

  it('honours a configured window', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, idempotencyWindowHours: 1 });
    const api = client(emulator);
    const first = await api.submit(body, 'window-0002');
    await emulator.advance(HOUR + 1);
    const again = await api.submit(body, 'window-0002');
    expect(again.body.replayed).toBe(false);
    expect(again.body.generation.id).not.toBe(first.body.generation.id);
  });

  it('runs 50 concurrent submissions with one key over a real socket exactly once', async () => {
    const running = await startTestEmulator({ ffmpegPath: false, timing: 'manual', seed: 1 });
    const send = () =>
      fetch(`${running.url}/v1/media/generations`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${running.apiKey}`,
          'Idempotency-Key': 'concurrent-0001',
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(body),
      }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { replayed: boolean; generation: { id: string } },
      }));
    const results = await Promise.all(Array.from({ length: 50 }, send));
    // 21.8 credits/s x 5 s x 9/4 (720p) = 245.25, rounded up once.
    expect(results[0].body.generation).toMatchObject({ charged_credits: 246 });
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(202));
    expect(results.filter((r) => !r.body.replayed)).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.generation.id)).size).toBe(1);
    const emulator = running.emulator;
    expect(runtimeOf(emulator).context().generations.size).toBe(1);
    expect(charges(emulator)).toHaveLength(1);
    expect(runtimeOf(emulator).context().ledger.balance(emulator.accountId)).toBe(1_000_000 - 246);
  });
});

describe('wallet drained by parallel submissions (real socket)', () => {
  async function drain(initialBalance: number, attempts: number) {
    const running = await startTestEmulator({ ffmpegPath: false, timing: 'manual', seed: 1, initialBalance });
    const send = (i: number) =>
      fetch(`${running.url}/v1/media/generations`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${running.apiKey}`,
          'Idempotency-Key': `drain-${String(i).padStart(4, '0')}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ model_slug: MODEL_A, prompt: `${PROMPT} #${i}`, max_credits: 100 }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error?: { code: string } } }));
    const results = await Promise.all(Array.from({ length: attempts }, (_, i) => send(i)));
    const emulator = running.emulator;
    const ledger = runtimeOf(emulator).context().ledger;
    // The running balance over the ledger never dips below zero.
    let running_ = 0;
    for (const e of ledger.list({ accountId: emulator.accountId })) {
      running_ += e.type === 'charge' ? -e.amount : e.amount;
      expect(running_).toBeGreaterThanOrEqual(0);
    }
    return { results, emulator, balance: ledger.balance(emulator.accountId) };
  }

  it('ends at exactly 0 with successes x price == initial balance', async () => {
    const { results, emulator, balance } = await drain(88 * 7, 25);
    const ok = results.filter((r) => r.status === 202);
    const refused = results.filter((r) => r.status !== 202);
    expect(ok).toHaveLength(7);
    expect(ok.length * 88).toBe(88 * 7);
    expect(refused.every((r) => r.status === 402 && r.body.error?.code === 'insufficient_credits')).toBe(true);
    expect(balance).toBe(0);
    expect(runtimeOf(emulator).context().generations.size).toBe(7);
  });

  it('never goes below 0 when the balance is not a multiple of the price', async () => {
    const { results, balance } = await drain(88 * 7 + 50, 25);
    expect(results.filter((r) => r.status === 202)).toHaveLength(7);
    expect(balance).toBe(50);
  });
});

/** mulberry32: a tiny seeded generator, so the random sequence is the same on every run. */
function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)],
  };
}

describe('ledger invariant: funding - balance == sum(net_credits)', () => {
  it.each([7, 42, 2025])('holds after every step of a random sequence (seed %i)', async (seed) => {
    const emulator = makeEmulator({ ffmpegPath: false, initialBalance: 20_000, clockStart: START });
    const api = client(emulator);
    const ctx = runtimeOf(emulator).context();
    const rnd = seeded(seed);
    const sent: { key: string; body: Record<string, unknown> }[] = [];
    const tally: Record<string, number> = {};
    const count = (op: string) => (tally[op] = (tally[op] ?? 0) + 1);

    const domainCheck = () => {
      let net = 0;
      for (const g of ctx.generations.all()) {
        const c = ctx.ledger.generationCredits(g.id);
        expect(c.refunded).toBeLessThanOrEqual(c.charged);
        net += c.charged - c.refunded;
      }
      const balance = ctx.ledger.balance(emulator.accountId);
      expect(balance).toBeGreaterThanOrEqual(0);
      expect(ctx.ledger.funding(emulator.accountId) - balance).toBe(net);
      expect(ctx.ledger.recompute().get(emulator.accountId)).toBe(balance);
    };
    const apiCheck = async () => {
      let net = 0;
      let cursor: string | null = null;
      do {
        const page: {
          body: {
            generations: {
              net_credits: number;
              charged_credits: number;
              refunded_credits: number;
              billing_status: string;
            }[];
            next_cursor: string | null;
          };
        } = await api.get(`/v1/media/generations?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
        for (const g of page.body.generations) {
          expect(g.net_credits).toBe(g.charged_credits - g.refunded_credits);
          expect(g.billing_status).toBe(
            g.refunded_credits === 0
              ? 'charged'
              : g.refunded_credits === g.charged_credits
                ? 'refunded'
                : 'partially_refunded',
          );
          net += g.net_credits;
        }
        cursor = page.body.next_cursor;
      } while (cursor);
      const usage = await api.get('/v1/media/usage');
      expect(ctx.ledger.funding(emulator.accountId) - usage.body.wallet_balance).toBe(net);
      const perModel = (usage.body.models as { net_credits: number }[]).reduce((s, m) => s + m.net_credits, 0);
      expect(perModel).toBe(net);
    };

    for (let step = 0; step < 150; step++) {
      const roll = rnd.next();
      if (roll < 0.4) {
        const model = rnd.pick([MODEL_A, MODEL_B]);
        const params =
          model === MODEL_A
            ? { duration: String(rnd.int(4, 15)), count: String(rnd.int(1, 4)), quality: rnd.pick(['480p', '720p']) }
            : { duration: String(rnd.int(3, 15)), count: String(rnd.int(1, 2)) };
        const body = {
          model_slug: model,
          prompt: `step ${step}`,
          params,
          max_credits: rnd.next() < 0.1 ? 50 : 100_000,
        };
        const key = `sequence-${seed}-${step}`;
        const res = await api.submit(body, key);
        expect([202, 402], JSON.stringify(res.body)).toContain(res.status);
        if (res.status === 202) sent.push({ key, body });
        count(res.status === 202 ? 'submit' : res.body.error.code);
      } else if (roll < 0.5 && sent.length) {
        const prior = rnd.pick(sent);
        const res = await api.submit(prior.body, prior.key);
        expect(res.body.replayed).toBe(true);
        count('replay');
      } else if (roll < 0.55 && sent.length) {
        const prior = rnd.pick(sent);
        expect((await api.submit({ ...prior.body, prompt: 'changed' }, prior.key)).status).toBe(409);
        count('conflict');
      } else if (roll < 0.7) {
        const refundable = [...ctx.generations.all()].filter((g) => {
          const c = ctx.ledger.generationCredits(g.id);
          return (g.status === 'completed' || g.status === 'failed') && c.charged > c.refunded;
        });
        if (refundable.length) {
          const g = rnd.pick(refundable);
          const c = ctx.ledger.generationCredits(g.id);
          const left = c.charged - c.refunded;
          if (rnd.next() < 0.5 || left === 1) ctx.lifecycle.refund(g, { kind: 'full' });
          else ctx.lifecycle.refund(g, { kind: 'partial', amount: rnd.int(1, left - 1) });
          count('refund');
        }
      } else if (roll < 0.8) {
        const live = [...ctx.generations.all()].filter((g) => g.status === 'pending' || g.status === 'running');
        if (live.length) {
          const g = rnd.pick(live);
          const c = ctx.ledger.generationCredits(g.id);
          const left = c.charged - c.refunded;
          const choices = [
            { kind: 'none' as const },
            ...(left > 0 ? [{ kind: 'full' as const }] : []),
            ...(left > 1 ? [{ kind: 'partial' as const, amount: rnd.int(1, left - 1) }] : []),
          ];
          ctx.lifecycle.fail(g, { code: 'scripted_failure', message: 'failed by the test' }, rnd.pick(choices));
          count('fail');
        }
      } else if (roll < 0.9) {
        await emulator.advance(rnd.int(0, 20_000));
        count('advance');
      } else if (roll < 0.95) {
        ctx.ledger.append({
          type: 'funding',
          accountId: emulator.accountId,
          amount: rnd.int(1, 5000),
          at: ctx.clock.now(),
          note: 'top-up',
        });
        count('top-up');
      } else {
        expect((await api.post('/v1/media/estimate', { model_slug: MODEL_B, prompt: 'x' })).status).toBe(200);
        count('estimate');
      }
      domainCheck();
      if (step % 25 === 24) await apiCheck();
    }
    await apiCheck();
    // The sequence exercised every kind of operation.
    expect(Object.keys(tally)).toEqual(
      expect.arrayContaining(['submit', 'replay', 'conflict', 'refund', 'fail', 'advance', 'top-up']),
    );
  });
});
