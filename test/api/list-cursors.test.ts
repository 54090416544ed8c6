// List cursors cannot be forged: each is tagged with the instance's signing secret and bound to the account and the
// filters it was issued for; any other (hand-made, altered, another account's or filter's, or from before a reset) is
// the 422 cursor_invalid docs/api.md promises.
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { runtimeOf } from '../../src/testing.js';
import { client, makeEmulator, MODEL_A, MODEL_B } from '../helpers/emulator.js';

type Page = { generations: { id: string }[]; next_cursor: string | null; has_more: boolean };

async function world(count = 6, options: Parameters<typeof makeEmulator>[0] = {}) {
  const emulator = makeEmulator({ ffmpegPath: false, ...options });
  for (let i = 1; i <= count; i++) {
    const res = await client(emulator).submit(
      { model_slug: i % 2 ? MODEL_A : MODEL_B, prompt: 'a lantern', max_credits: 100_000 },
      `cursor-world-${i}`,
    );
    expect(res.status).toBe(202);
  }
  return emulator;
}

const get = (emulator: Emulator, query: string, secret = emulator.apiKey) =>
  client(emulator, secret).get(`/v1/media/generations?${query}`);

async function firstCursor(emulator: Emulator, query = 'limit=2', secret = emulator.apiKey): Promise<string> {
  const res = await get(emulator, query, secret);
  expect(res.status).toBe(200);
  const cursor = (res.body as Page).next_cursor;
  expect(cursor).toEqual(expect.any(String));
  return cursor as string;
}

async function expectRefused(emulator: Emulator, query: string, cursor: string, secret = emulator.apiKey) {
  const res = await get(emulator, `${query}&cursor=${encodeURIComponent(cursor)}`, secret);
  expect(res.status, res.text).toBe(422);
  expect(res.headers['content-type']).toBe('application/json');
  expect(res.body).toStrictEqual({
    detail: [
      {
        type: 'cursor_invalid',
        loc: ['query', 'cursor'],
        msg: 'Cursor is not valid; pass the next_cursor value of a previous page unchanged',
        input: cursor,
      },
    ],
  });
}

const base64url = (text: string) => Buffer.from(text).toString('base64url');

describe('a cursor the emulator did not issue is 422 cursor_invalid', () => {
  it.each([
    ['the old unsigned form, hand-made', base64url('{"v":1,"before":9007199254740991}')],
    ['neither form', 'not-a-cursor'],
    ['JSON of another shape', base64url('{"v":2,"before":3}')],
    ['a position that is no whole number', '1.5.AAAAAAAAAAAAAAAAAAAAAA'],
    ['a position alone', '9007199254740991'],
    ['a position with a made-up tag', '5.AAAAAAAAAAAAAAAAAAAAAA'],
    ['an empty position', '.AAAAAAAAAAAAAAAAAAAAAA'],
  ])('%s', async (_name, cursor) => {
    const emulator = await world();
    await expectRefused(emulator, 'limit=2', cursor);
  });

  it('refuses an issued cursor with anything added, removed or changed', async () => {
    const emulator = await world();
    const cursor = await firstCursor(emulator);
    const [position, tag] = cursor.split('.');
    const flipped = `${tag.slice(0, -1)}${tag.endsWith('A') ? 'B' : 'A'}`;
    for (const altered of [
      `${cursor}!!!`,
      `${cursor}A`,
      cursor.slice(0, -1),
      `${position}.${flipped}`,
      `${Number(position) + 1}.${tag}`,
      `0${cursor}`,
      `+${cursor}`,
      ` ${cursor}`,
    ])
      await expectRefused(emulator, 'limit=2', altered);
  });

  it('binds a cursor to the filters it was issued under, not to the page size', async () => {
    const emulator = await world(8);
    const cursor = await firstCursor(emulator, `model_slug=${MODEL_A}&limit=1`);
    await expectRefused(emulator, 'limit=1', cursor);
    await expectRefused(emulator, `model_slug=${MODEL_B}&limit=1`, cursor);
    await expectRefused(emulator, `model_slug=${MODEL_A}&status=pending&limit=1`, cursor);
    await expectRefused(emulator, `model_slug=${MODEL_A}&from=2020-01-01T00:00:00Z&limit=1`, cursor);
    const next = await get(emulator, `model_slug=${MODEL_A}&limit=10&cursor=${cursor}`);
    expect(next.status).toBe(200);
    expect((next.body as Page).generations).toHaveLength(3);
  });

  it("binds a cursor to the account: another account's key cannot page with it", async () => {
    const emulator = await world();
    const ctx = runtimeOf(emulator).context();
    const now = ctx.clock.now();
    ctx.accounts.createAccount('acct_other', 'Other account', now);
    const other = ctx.accounts.createKey({ accountId: 'acct_other', secret: 'sk-media-other-account-01' }, now);
    const cursor = await firstCursor(emulator);
    await expectRefused(emulator, 'limit=2', cursor, other.secret);
  });

  it('refuses a cursor issued before a reset: the signing secret is new', async () => {
    const emulator = await world();
    const cursor = await firstCursor(emulator);
    await emulator.control.reset();
    for (let i = 1; i <= 4; i++)
      await client(emulator).submit({ model_slug: MODEL_A, prompt: 'again', max_credits: 100_000 }, `after-reset-${i}`);
    await expectRefused(emulator, 'limit=2', cursor);
  });
});

describe('issued cursors keep working', () => {
  it('pages through every generation exactly once, the same cursor each time a page is read again', async () => {
    const emulator = await world(7);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const page = (await get(emulator, query)).body as Page;
      expect(((await get(emulator, query)).body as Page).next_cursor).toBe(page.next_cursor);
      seen.push(...page.generations.map((g) => g.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(7);
    expect(seen).toHaveLength(7);
  });

  it('issues the same cursors on every run given the same signing secret', async () => {
    const a = await world(4, { signingSecret: 'a-fixed-secret' });
    const b = await world(4, { signingSecret: 'a-fixed-secret' });
    const c = await world(4, { signingSecret: 'another-secret' });
    expect(await firstCursor(a)).toBe(await firstCursor(b));
    expect(await firstCursor(a)).not.toBe(await firstCursor(c));
    await expectRefused(c, 'limit=2', await firstCursor(a));
  });
});
