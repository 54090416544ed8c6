// GET /v1/media/models (catalogue, ?kind filter) and POST /v1/media/estimate (price, balance, breakdown; never charges).
// Price arithmetic itself is covered value by value in test/unit/pricing.test.ts; here it is the HTTP surface.
import { describe, expect, it } from 'vitest';
import { client, makeEmulator, MODEL_A, MODEL_B } from '../helpers/emulator.js';
import { runtimeOf } from '../../src/testing.js';

const KIND_EXPECTED = "'image', 'video', 'music' or '3d'";

describe('GET /v1/media/models', () => {
  it('lists every catalogue model with its option groups, prompt and reference rules, output and price', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await client(emulator).get('/v1/media/models');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    const models = res.body.models as Record<string, any>[];
    expect(models.map((m) => [m.slug, m.kind])).toEqual([
      [MODEL_A, 'video'],
      [MODEL_B, 'video'],
      ['still-sketch-v1', 'image'],
      ['tone-music-v1', 'music'],
      ['mesh-blocks-v1', '3d'],
    ]);

    const a = models[0];
    expect(a.emulator_example).toBe(false);
    expect(a.prompt).toEqual({ required: true, max_length: 2500 });
    expect(a.option_groups.map((g: any) => [g.name, g.values, g.default])).toEqual([
      ['duration', ['4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15'], '4'],
      ['quality', ['480p', '720p'], '480p'],
      ['size', ['16:9', '9:16', '1:1', '4:3', '3:4', '21:9'], '16:9'],
      ['audio', ['off', 'on'], 'off'],
      ['count', ['1', '2', '3', '4'], '1'],
    ]);
    expect(a.reference_inputs).toMatchObject({
      field: 'refs',
      max_files: 1,
      accepts: ['upload_id'],
      formats: ['png', 'jpeg', 'webp'],
    });
    expect(a.reference_inputs.slots.map((s: any) => [s.name, s.role])).toEqual([['start_image', 'first']]);
    expect(a.output).toMatchObject({ format: 'mp4', mime_type: 'video/mp4' });
    expect(a.default_price_credits).toBe(88);

    const b = models[1];
    expect(b.emulator_example).toBe(false);
    expect(b.prompt).toEqual({ required: true, max_length: 2500 });
    expect(b.option_groups.map((g: any) => [g.name, g.values, g.default])).toEqual([
      ['duration', ['3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15'], '3'],
      ['size', ['16:9', '9:16', '1:1'], '16:9'],
      ['audio', ['off', 'on'], 'off'],
      ['count', ['1', '2', '3', '4'], '1'],
    ]);
    expect(b.reference_inputs).toMatchObject({ field: 'refs', max_files: 2, accepts: ['upload_id'] });
    expect(b.reference_inputs.slots.map((s: any) => [s.name, s.role])).toEqual([
      ['first_frame', 'first'],
      ['last_frame', 'last'],
    ]);
    expect(b.output).toMatchObject({ format: 'mp4', mime_type: 'video/mp4' });
    expect(b.default_price_credits).toBe(763);

    for (const example of models.slice(2)) expect(example.emulator_example).toBe(true);
  });

  it.each([
    ['video', [MODEL_A, MODEL_B]],
    ['image', ['still-sketch-v1']],
    ['music', ['tone-music-v1']],
    ['3d', ['mesh-blocks-v1']],
  ])('filters by ?kind=%s', async (kind, slugs) => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await client(emulator).get(`/v1/media/models?kind=${kind}`);
    expect(res.status).toBe(200);
    expect(res.body.models.map((m: any) => m.slug)).toEqual(slugs);
    for (const m of res.body.models) expect(m.kind).toBe(kind);
  });

  it('gives an empty list for a valid kind with no models', async () => {
    const emulator = makeEmulator({
      ffmpegPath: false,
      catalogue: {
        version: 1,
        models: [
          {
            slug: 'only-image',
            kind: 'image',
            name: 'Only image',
            description: 'one model',
            emulator_example: true,
            capabilities: [],
            prompt: { required: true, max_length: 100 },
            option_groups: [],
            reference_inputs: null,
            output: { format: 'png', mime_type: 'image/png' },
            price: { unit: 'image', credits_per_unit: '3', multipliers: {}, rounding: 'ceil' },
          },
        ],
      },
    });
    const res = await client(emulator).get('/v1/media/models?kind=video');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ models: [] });
  });

  it.each(['VIDEO', 'videos', '', 'image,video'])(
    'refuses ?kind=%j with a literal_error at ["query","kind"]',
    async (kind) => {
      const emulator = makeEmulator({ ffmpegPath: false });
      const res = await client(emulator).get(`/v1/media/models?kind=${encodeURIComponent(kind)}`);
      expect(res.status).toBe(422);
      expect(res.text).toBe(
        JSON.stringify({
          detail: [
            {
              type: 'literal_error',
              loc: ['query', 'kind'],
              msg: `Input should be ${KIND_EXPECTED}`,
              input: kind,
              ctx: { expected: KIND_EXPECTED },
            },
          ],
        }),
      );
    },
  );

  it('ignores unknown query parameters, as FastAPI does', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await client(emulator).get('/v1/media/models?kind=3d&page=2');
    expect(res.status).toBe(200);
    expect(res.body.models).toHaveLength(1);
  });
});

describe('POST /v1/media/estimate', () => {
  const prompt = 'a lighthouse at dusk';
  const cases: [
    string,
    string,
    Record<string, string> | undefined,
    number,
    { unit: string; units: number; seconds: number | null; count: number },
    Record<string, string>,
  ][] = [
    [
      'Model A defaults',
      MODEL_A,
      undefined,
      88,
      { unit: 'second', units: 4, seconds: 4, count: 1 },
      { duration: '4', quality: '480p', size: '16:9', audio: 'off', count: '1' },
    ],
    [
      'Model A 720p',
      MODEL_A,
      { quality: '720p' },
      197,
      { unit: 'second', units: 4, seconds: 4, count: 1 },
      { duration: '4', quality: '720p', size: '16:9', audio: 'off', count: '1' },
    ],
    [
      'Model A 15 s',
      MODEL_A,
      { duration: '15' },
      327,
      { unit: 'second', units: 15, seconds: 15, count: 1 },
      { duration: '15', quality: '480p', size: '16:9', audio: 'off', count: '1' },
    ],
    [
      'Model A count 4',
      MODEL_A,
      { count: '4' },
      349,
      { unit: 'second', units: 4, seconds: 4, count: 4 },
      { duration: '4', quality: '480p', size: '16:9', audio: 'off', count: '4' },
    ],
    [
      'Model A everything at its top',
      MODEL_A,
      { count: '4', audio: 'on', size: '21:9', quality: '720p', duration: '15' },
      2943,
      { unit: 'second', units: 15, seconds: 15, count: 4 },
      { duration: '15', quality: '720p', size: '21:9', audio: 'on', count: '4' },
    ],
    [
      'Model B defaults',
      MODEL_B,
      undefined,
      763,
      { unit: 'second', units: 3, seconds: 3, count: 1 },
      { duration: '3', size: '16:9', audio: 'off', count: '1' },
    ],
    [
      'Model B 15 s',
      MODEL_B,
      { duration: '15' },
      3815,
      { unit: 'second', units: 15, seconds: 15, count: 1 },
      { duration: '15', size: '16:9', audio: 'off', count: '1' },
    ],
    [
      'Model B count 4, size and audio',
      MODEL_B,
      { count: '4', size: '9:16', audio: 'on' },
      3052,
      { unit: 'second', units: 3, seconds: 3, count: 4 },
      { duration: '3', size: '9:16', audio: 'on', count: '4' },
    ],
    [
      'an image model (not per second)',
      'still-sketch-v1',
      { count: '3' },
      12,
      { unit: 'image', units: 1, seconds: null, count: 3 },
      { size: '1:1', count: '3' },
    ],
  ];

  it.each(cases)('%s', async (_name, slug, params, credits, breakdown, resolved) => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const ctx = runtimeOf(emulator).context();
    const ledgerBefore = ctx.ledger.size;
    const res = await client(emulator).post('/v1/media/estimate', {
      model_slug: slug,
      prompt,
      ...(params ? { params } : {}),
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body.credits).toBe(credits);
    expect(Number.isInteger(res.body.credits)).toBe(true);
    expect(res.body.wallet_balance).toBe(1_000_000);
    expect(res.body.sufficient_balance).toBe(true);
    expect(res.body.model_slug).toBe(slug);
    expect(res.body.breakdown).toMatchObject(breakdown);
    expect(res.body.params).toStrictEqual(resolved);
    // Resolved params list every group of the model, in catalogue order.
    expect(Object.keys(res.body.params)).toEqual(emulator.catalogue.get(slug)!.option_groups.map((g) => g.name));
    // Never charges.
    expect(ctx.ledger.size).toBe(ledgerBefore);
    expect(ctx.ledger.balance(emulator.accountId)).toBe(1_000_000);
    expect(ctx.generations.size).toBe(0);
  });

  it('matches the submission price exactly', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const api = client(emulator);
    const body = { model_slug: MODEL_A, prompt, params: { duration: '7', quality: '720p', count: '3' } };
    const estimate = await api.post('/v1/media/estimate', body);
    const submitted = await api.submit({ ...body, max_credits: estimate.body.credits }, 'estimate-match-1');
    expect(submitted.status).toBe(202);
    expect(submitted.body.generation.charged_credits).toBe(estimate.body.credits);
    const again = await api.post('/v1/media/estimate', body);
    expect(again.body.wallet_balance).toBe(1_000_000 - estimate.body.credits);
  });

  it('answers with the current balance and sufficient_balance false when the wallet is short, and still charges nothing', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, initialBalance: 500 });
    const api = client(emulator);
    const res = await api.post('/v1/media/estimate', { model_slug: MODEL_B, prompt });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ credits: 763, wallet_balance: 500, sufficient_balance: false });
    expect(runtimeOf(emulator).context().ledger.balance(emulator.accountId)).toBe(500);
  });

  it('counts a wallet holding exactly the price as sufficient, and the submission then goes through', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, initialBalance: 763 });
    const api = client(emulator);
    const res = await api.post('/v1/media/estimate', { model_slug: MODEL_B, prompt });
    expect(res.body).toMatchObject({ credits: 763, wallet_balance: 763, sufficient_balance: true });
    const submitted = await api.submit({ model_slug: MODEL_B, prompt, max_credits: 763 }, 'estimate-exact-balance-1');
    expect(submitted.status).toBe(202);
    expect(runtimeOf(emulator).context().ledger.balance(emulator.accountId)).toBe(0);
  });

  it('is repeatable: many estimates leave balance, ledger, usage and generations untouched', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const api = client(emulator);
    const usageBefore = (await api.get('/v1/media/usage')).body;
    const ledgerBefore = runtimeOf(emulator).context().ledger.size;
    for (let i = 0; i < 20; i++) {
      const res = await api.post('/v1/media/estimate', { model_slug: i % 2 ? MODEL_A : MODEL_B, prompt });
      expect(res.status).toBe(200);
    }
    const usageAfter = (await api.get('/v1/media/usage')).body;
    expect({ ...usageAfter, as_of: null }).toEqual({ ...usageBefore, as_of: null });
    expect(runtimeOf(emulator).context().ledger.size).toBe(ledgerBefore);
    expect((await api.get('/v1/media/generations')).body.generations).toEqual([]);
  });

  it('answers 404 model_not_found for an unknown model', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const res = await client(emulator).post('/v1/media/estimate', { model_slug: 'motion-max-v9', prompt });
    expect(res.status).toBe(404);
    expect(res.body).toStrictEqual({
      error: { code: 'model_not_found', message: expect.stringContaining('motion-max-v9') },
    });
  });

  it('applies the key scope: a key limited to Model B cannot estimate Model A', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const ctx = runtimeOf(emulator).context();
    const key = ctx.accounts.createKey(
      { accountId: emulator.accountId, secret: 'sk-media-only-b-0001', modelScope: MODEL_B },
      ctx.clock.now(),
    );
    const api = client(emulator, key.secret);
    expect((await api.post('/v1/media/estimate', { model_slug: MODEL_B, prompt })).status).toBe(200);
    const refused = await api.post('/v1/media/estimate', { model_slug: MODEL_A, prompt });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('model_not_allowed_for_key');
  });
});
