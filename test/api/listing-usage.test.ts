// GET /v1/media/generations (every filter, newest first, default and maximum limits, an insert-stable cursor, account
// isolation) and GET /v1/media/usage (balance, today's credits, per-model totals, the calling key's limits).
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { client, makeEmulator, MODEL_A, MODEL_B } from '../helpers/emulator.js';
import { runtimeOf } from '../../src/testing.js';

const START = '2025-06-01T08:00:00.000Z';
const MIN = 60_000;
const PROMPT = 'a lantern festival';

type Page = {
  generations: { id: string; created_at: string; kind: string; status: string; model_slug: string }[];
  next_cursor: string | null;
  has_more: boolean;
  limit: number;
};

async function submit(emulator: Emulator, model: string, key: string, secret = emulator.apiKey) {
  const res = await client(emulator, secret).submit({ model_slug: model, prompt: PROMPT, max_credits: 100_000 }, key);
  expect(res.status).toBe(202);
  return res.body.generation.id as string;
}

async function list(emulator: Emulator, query = '', secret = emulator.apiKey): Promise<Page> {
  const res = await client(emulator, secret).get(`/v1/media/generations${query ? `?${query}` : ''}`);
  expect(res.status, res.text).toBe(200);
  return res.body as Page;
}

const ids = (page: Page) => page.generations.map((g) => g.id);

/**
 * Six generations a minute apart, one of each kind and both video models, in every state:
 * g1 A completed, g2 image completed, g3 B failed, g4 music completed, g5 3d completed, g6 A running.
 */
async function world() {
  const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
  const g1 = await submit(emulator, MODEL_A, 'world-0001');
  await emulator.advance(MIN);
  const g2 = await submit(emulator, 'still-sketch-v1', 'world-0002');
  await emulator.advance(MIN);
  const g3 = await submit(emulator, MODEL_B, 'world-0003');
  const ctx = runtimeOf(emulator).context();
  ctx.lifecycle.fail(ctx.generations.get(g3)!, { code: 'content_rejected', message: 'refused' }, { kind: 'full' });
  await emulator.advance(MIN);
  const g4 = await submit(emulator, 'tone-music-v1', 'world-0004');
  await emulator.advance(MIN);
  const g5 = await submit(emulator, 'mesh-blocks-v1', 'world-0005');
  await emulator.advance(MIN);
  const g6 = await submit(emulator, MODEL_A, 'world-0006');
  await emulator.advance(1500);
  return { emulator, g: [g1, g2, g3, g4, g5, g6] };
}

describe('GET /v1/media/generations filters', () => {
  it('lists newest first with the documented page shape', async () => {
    const { emulator, g } = await world();
    const page = await list(emulator);
    expect(Object.keys(page)).toEqual(['generations', 'next_cursor', 'has_more', 'limit']);
    expect(ids(page)).toEqual([...g].reverse());
    expect(page).toMatchObject({ next_cursor: null, has_more: false, limit: 30 });
    expect(page.generations.map((x) => x.status)).toEqual([
      'running',
      'completed',
      'completed',
      'failed',
      'completed',
      'completed',
    ]);
  });

  it('returns full generation records (the same as a single read)', async () => {
    const { emulator, g } = await world();
    const page = await list(emulator, 'status=completed&limit=1');
    const single = await client(emulator).get(`/v1/media/generations/${page.generations[0].id}`);
    // supertest listens on a fresh port per request, so compare the URLs without their origin.
    const local = (g: unknown) => JSON.parse(JSON.stringify(g).replace(/http:\/\/127\.0\.0\.1:\d+/g, ''));
    expect(local(page.generations[0])).toStrictEqual(local(single.body.generation));
    expect(page.generations[0].id).toBe(g[4]);
  });

  const filters: [string, string, number[]][] = [
    ['kind=video', 'kind=video', [6, 3, 1]],
    ['kind=image', 'kind=image', [2]],
    ['kind=music', 'kind=music', [4]],
    ['kind=3d', 'kind=3d', [5]],
    ['status=completed', 'status=completed', [5, 4, 2, 1]],
    ['status=failed', 'status=failed', [3]],
    ['status=running', 'status=running', [6]],
    ['status=pending', 'status=pending', []],
    ['model_slug=Model A', `model_slug=${MODEL_A}`, [6, 1]],
    ['model_slug=Model B', `model_slug=${MODEL_B}`, [3]],
    ['model_slug of an unknown model', 'model_slug=nothing-v0', []],
    ['from is inclusive', 'from=2025-06-01T08:02:00Z', [6, 5, 4, 3]],
    ['to is exclusive', 'to=2025-06-01T08:02:00Z', [2, 1]],
    ['from and to together', 'from=2025-06-01T08:02:00Z&to=2025-06-01T08:04:00Z', [4, 3]],
    ['from with a +02:00 offset', `from=${encodeURIComponent('2025-06-01T10:03:00+02:00')}`, [6, 5, 4]],
    ['to with fractional seconds', 'to=2025-06-01T08:00:00.001Z', [1]],
    ['from as a date', 'from=2025-06-01', [6, 5, 4, 3, 2, 1]],
    ['from the next day', 'from=2025-06-02', []],
    ['to as a date (midnight)', 'to=2025-06-01', []],
    ['from after to', 'from=2025-06-01T09:00:00Z&to=2025-06-01T08:00:00Z', []],
    ['kind and status', 'kind=video&status=completed', [1]],
    ['kind, model and window', `kind=video&model_slug=${MODEL_A}&from=2025-06-01T08:01:00Z`, [6]],
    ['limit 2', 'limit=2', [6, 5]],
  ];
  it.each(filters)('%s', async (_name, query, expected) => {
    const { emulator, g } = await world();
    expect(ids(await list(emulator, query))).toEqual(expected.map((n) => g[n - 1]));
  });

  it('refuses out-of-bounds filters with 422 (see validation-422.test.ts for every item)', async () => {
    const { emulator } = await world();
    for (const q of [
      'kind=movie',
      'status=done',
      `model_slug=${'m'.repeat(81)}`,
      'from=yesterday',
      'to=2025-02-30',
      `cursor=${'c'.repeat(301)}`,
      'limit=0',
      'limit=101',
    ]) {
      const res = await client(emulator).get(`/v1/media/generations?${q}`);
      expect(res.status, q).toBe(422);
      expect(res.body.detail[0].loc[0]).toBe('query');
    }
  });
});

describe('limits and paging', () => {
  async function many(n: number) {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    for (let i = 1; i <= n; i++) await submit(emulator, MODEL_A, `many-${String(i).padStart(5, '0')}`);
    return emulator;
  }
  const gen = (n: number) => `gen_${String(n).padStart(6, '0')}`;
  const range = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => gen(from - i));

  it('defaults to 30 per page and allows up to 100', async () => {
    const emulator = await many(105);
    const page = await list(emulator);
    expect(page.limit).toBe(30);
    expect(ids(page)).toEqual(range(105, 76));
    expect(page.has_more).toBe(true);
    expect(page.next_cursor).toEqual(expect.any(String));

    const big = await list(emulator, 'limit=100');
    expect(ids(big)).toEqual(range(105, 6));
    expect(big.has_more).toBe(true);
    const rest = await list(emulator, `limit=100&cursor=${big.next_cursor}`);
    expect(ids(rest)).toEqual(range(5, 1));
    expect(rest).toMatchObject({ next_cursor: null, has_more: false });
  });

  it('returns every generation exactly once when paging, for every page size', async () => {
    const emulator = await many(23);
    for (const limit of [1, 2, 3, 5, 7, 22, 23, 24, 100]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: Page = await list(emulator, `limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.generations.length).toBeLessThanOrEqual(limit);
        seen.push(...ids(page));
        cursor = page.next_cursor;
        pages++;
      } while (cursor);
      expect(seen, `limit ${limit}`).toEqual(range(23, 1));
      expect(pages).toBe(Math.ceil(23 / limit));
    }
  });

  it('keeps the cursor stable while new generations arrive: they neither appear in nor disturb the remaining pages', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    for (let i = 1; i <= 7; i++) await submit(emulator, MODEL_A, `stable-${String(i).padStart(4, '0')}`);
    const first = await list(emulator, 'limit=3');
    expect(ids(first)).toEqual(range(7, 5));

    await submit(emulator, MODEL_B, 'stable-new-1');
    await submit(emulator, MODEL_A, 'stable-new-2');
    const second = await list(emulator, `limit=3&cursor=${first.next_cursor}`);
    expect(ids(second)).toEqual(range(4, 2));

    await emulator.advance(MIN);
    await submit(emulator, MODEL_A, 'stable-new-3');
    const third = await list(emulator, `limit=3&cursor=${second.next_cursor}`);
    expect(ids(third)).toEqual([gen(1)]);
    expect(third.next_cursor).toBeNull();

    // A fresh first page shows the newcomers first.
    expect(ids(await list(emulator, 'limit=3'))).toEqual([gen(10), gen(9), gen(8)]);
  });

  it('pages through a filtered list with the same cursor rules', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    for (let i = 1; i <= 9; i++) await submit(emulator, i % 3 === 0 ? MODEL_B : MODEL_A, `filtered-${i}-0000`);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await list(emulator, `model_slug=${MODEL_B}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...ids(page));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual([gen(9), gen(6), gen(3)]);
  });
});

describe('accounts see only their own generations', () => {
  function secondAccount(emulator: Emulator) {
    const ctx = runtimeOf(emulator).context();
    const now = ctx.clock.now();
    ctx.accounts.createAccount('acct_other', 'Other account', now);
    ctx.ledger.append({ type: 'funding', accountId: 'acct_other', amount: 5000, at: now, note: 'test funding' });
    return ctx.accounts.createKey({ accountId: 'acct_other', secret: 'sk-media-other-account-01' }, now);
  }

  it('lists, reads and counts per account', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    const other = secondAccount(emulator);
    const mine = await submit(emulator, MODEL_A, 'acct-mine-0001');
    const theirs = await submit(emulator, MODEL_B, 'acct-theirs-01', other.secret);

    expect(ids(await list(emulator))).toEqual([mine]);
    expect(ids(await list(emulator, '', other.secret))).toEqual([theirs]);
    expect(ids(await list(emulator, `model_slug=${MODEL_B}`))).toEqual([]);

    const foreign = await client(emulator).get(`/v1/media/generations/${theirs}`);
    const missing = await client(emulator).get('/v1/media/generations/gen_999999');
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('generation_not_found');
    expect(foreign.body.error.message.replace(theirs, 'ID')).toBe(
      missing.body.error.message.replace('gen_999999', 'ID'),
    );
    expect((await client(emulator, other.secret).get(`/v1/media/generations/${mine}`)).status).toBe(404);
    expect((await client(emulator, other.secret).get(`/v1/media/generations/${theirs}`)).status).toBe(200);

    const usage = (await client(emulator, other.secret).get('/v1/media/usage')).body;
    expect(usage).toMatchObject({
      account_id: 'acct_other',
      wallet_balance: 5000 - 763,
      today: { charged_credits: 763 },
    });
    expect(usage.models).toEqual([
      { model_slug: MODEL_B, generations: 1, charged_credits: 763, refunded_credits: 0, net_credits: 763 },
    ]);
    expect((await client(emulator).get('/v1/media/usage')).body.wallet_balance).toBe(1_000_000 - 88);
  });

  it('shares the list between keys of one account', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const ctx = runtimeOf(emulator).context();
    const second = ctx.accounts.createKey(
      { accountId: emulator.accountId, secret: 'sk-media-same-account-1' },
      ctx.clock.now(),
    );
    const a = await submit(emulator, MODEL_A, 'same-acct-0001');
    const b = await submit(emulator, MODEL_A, 'same-acct-0002', second.secret);
    expect(ids(await list(emulator))).toEqual([b, a]);
    expect(ids(await list(emulator, '', second.secret))).toEqual([b, a]);
  });
});

describe('GET /v1/media/usage', () => {
  it('answers balance, today, per-model totals and the calling key, and rolls "today" over at midnight UTC', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: '2025-06-01T23:00:00.000Z' });
    const ctx = runtimeOf(emulator).context();
    const scoped = ctx.accounts.createKey(
      {
        accountId: emulator.accountId,
        secret: 'sk-media-usage-key-0001',
        name: 'ci key',
        modelScope: MODEL_A,
        dailyCreditLimit: 500,
      },
      ctx.clock.now(),
    );
    const api = client(emulator, scoped.secret);
    expect(
      (
        await api.submit(
          { model_slug: MODEL_A, prompt: PROMPT, params: { quality: '720p' }, max_credits: 500 },
          'usage-0001',
        )
      ).status,
    ).toBe(202);
    expect((await api.submit({ model_slug: MODEL_A, prompt: PROMPT, max_credits: 500 }, 'usage-0002')).status).toBe(
      202,
    );
    const b = await submit(emulator, MODEL_B, 'usage-0003');
    // Only a completed or failed generation can be refunded.
    await emulator.control.complete(b);
    await emulator.control.refund(b, 50);

    const res = await api.get('/v1/media/usage');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body).toStrictEqual({
      account_id: emulator.accountId,
      wallet_balance: 1_000_000 - 197 - 88 - 763 + 50,
      today: { date: '2025-06-01', charged_credits: 1048, refunded_credits: 50, net_credits: 998 },
      models: [
        { model_slug: MODEL_A, generations: 2, charged_credits: 285, refunded_credits: 0, net_credits: 285 },
        { model_slug: MODEL_B, generations: 1, charged_credits: 763, refunded_credits: 50, net_credits: 713 },
      ],
      key: {
        id: scoped.id,
        name: 'ci key',
        model_scope: MODEL_A,
        daily_credit_limit: 500,
        used_today: 285,
        remaining_today: 215,
      },
      as_of: '2025-06-01T23:00:00.000+00:00',
    });

    const seeded = (await client(emulator).get('/v1/media/usage')).body;
    expect(seeded.key).toStrictEqual({
      id: 1,
      name: 'seeded key',
      model_scope: null,
      daily_credit_limit: null,
      used_today: 713,
      remaining_today: null,
    });
    expect(seeded.wallet_balance).toBe(res.body.wallet_balance);

    // After midnight UTC on the emulator clock: today starts at zero, totals stay.
    await emulator.advance(3_600_000);
    const tomorrow = (await api.get('/v1/media/usage')).body;
    expect(tomorrow.today).toStrictEqual({
      date: '2025-06-02',
      charged_credits: 0,
      refunded_credits: 0,
      net_credits: 0,
    });
    expect(tomorrow.key).toMatchObject({ used_today: 0, remaining_today: 500 });
    expect(tomorrow.models).toEqual(res.body.models);
    expect(tomorrow.wallet_balance).toBe(res.body.wallet_balance);
    expect(tomorrow.as_of).toBe('2025-06-02T00:00:00.000+00:00');
  });

  it('shows remaining_today 0 (never negative) when the ceiling is used up', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const ctx = runtimeOf(emulator).context();
    const key = ctx.accounts.createKey(
      { accountId: emulator.accountId, secret: 'sk-media-usage-key-0002', dailyCreditLimit: 100 },
      ctx.clock.now(),
    );
    await submit(emulator, MODEL_A, 'used-up-0001', key.secret);
    expect((await client(emulator, key.secret).get('/v1/media/usage')).body.key).toMatchObject({
      daily_credit_limit: 100,
      used_today: 88,
      remaining_today: 12,
    });
  });

  it('answers an empty account with zeros and no models', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START });
    expect((await client(emulator).get('/v1/media/usage')).body).toStrictEqual({
      account_id: emulator.accountId,
      wallet_balance: 1_000_000,
      today: { date: '2025-06-01', charged_credits: 0, refunded_credits: 0, net_credits: 0 },
      models: [],
      key: {
        id: 1,
        name: 'seeded key',
        model_scope: null,
        daily_credit_limit: null,
        used_today: 0,
        remaining_today: null,
      },
      as_of: '2025-06-01T08:00:00.000+00:00',
    });
  });
});
