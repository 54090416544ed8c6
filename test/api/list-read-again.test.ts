// A list read again (the heap remembers a page's ids and its generations' credits) shows every change made in between:
// a submission, a move out of a status filter, a refund, a reset, an import and a restart from the state file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { client, startTestEmulator } from '../helpers/emulator.js';
import { CHEAP_PRICE, controlled, idem, submission } from '../helpers/controlled-emulator.js';

type Listed = { id: string; status: string; refunded_credits: number; net_credits: number; billing_status: string };
type Page = { generations: Listed[]; next_cursor: string | null; has_more: boolean };

async function list(emulator: Emulator, query = ''): Promise<Page> {
  const res = await client(emulator).get(`/v1/media/generations${query ? `?${query}` : ''}`);
  expect(res.status, res.text).toBe(200);
  return res.body as Page;
}

const ids = (page: Page) => page.generations.map((g) => g.id);

async function submit(emulator: Emulator, n: number): Promise<string> {
  const res = await client(emulator).submit(submission(), idem(n));
  expect(res.status, res.text).toBe(202);
  return res.body.generation.id as string;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a list read again', () => {
  it('shows a generation submitted after the first read, first', async () => {
    const { emulator } = controlled();
    const first = await submit(emulator, 1);
    expect(ids(await list(emulator))).toEqual([first]);
    expect(ids(await list(emulator))).toEqual([first]);
    const second = await submit(emulator, 2);
    expect(ids(await list(emulator))).toEqual([second, first]);
  });

  it('follows a move out of and into a status filter', async () => {
    const { emulator, control } = controlled();
    const [a, b] = [await submit(emulator, 1), await submit(emulator, 2)];
    expect(ids(await list(emulator, 'status=pending'))).toEqual([b, a]);
    expect(ids(await list(emulator, 'status=completed'))).toEqual([]);
    await control.complete(a);
    expect(ids(await list(emulator, 'status=pending'))).toEqual([b]);
    expect(ids(await list(emulator, 'status=completed'))).toEqual([a]);
    expect((await list(emulator)).generations.map((g) => g.status)).toEqual(['pending', 'completed']);
  });

  it('shows a refund made after the page was read, before and after it is committed', async () => {
    const { emulator, control } = controlled();
    const id = await submit(emulator, 1);
    await control.complete(id);
    expect((await list(emulator)).generations[0]).toMatchObject({ refunded_credits: 0, billing_status: 'charged' });
    await control.refund(id);
    expect((await list(emulator)).generations[0]).toMatchObject({
      refunded_credits: CHEAP_PRICE,
      net_credits: 0,
      billing_status: 'refunded',
    });
    await submit(emulator, 2);
    const again = await list(emulator);
    expect(again.generations[1]).toMatchObject({ id, refunded_credits: CHEAP_PRICE, billing_status: 'refunded' });
  });

  it('keeps paging right while the first page is read again between pages', async () => {
    const { emulator } = controlled();
    const made: string[] = [];
    for (let n = 1; n <= 5; n++) made.push(await submit(emulator, n));
    const first = await list(emulator, 'limit=2');
    expect(await list(emulator, 'limit=2')).toStrictEqual(first);
    const second = await list(emulator, `limit=2&cursor=${first.next_cursor}`);
    const third = await list(emulator, `limit=2&cursor=${second.next_cursor}`);
    expect([...ids(first), ...ids(second), ...ids(third)]).toEqual([...made].reverse());
    expect(third).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('shows the new state after a reset and after an import', async () => {
    const { emulator, control } = controlled();
    const kept = await submit(emulator, 1);
    const exported = await control.exportState();
    expect(ids(await list(emulator))).toEqual([kept]);
    await control.reset();
    expect(ids(await list(emulator))).toEqual([]);
    await control.importState(exported);
    expect(ids(await list(emulator))).toEqual([kept]);
  });

  it('shows the same page and credits after a restart from the state file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'list-again-'));
    dirs.push(dir);
    const stateFile = join(dir, 'state.db');
    const before = await startTestEmulator({ stateFile, ffmpegPath: false, timing: 'manual' });
    const a = await submit(before.emulator, 1);
    const b = await submit(before.emulator, 2);
    await before.control.complete(a);
    await before.control.refund(a);
    const page = await list(before.emulator);
    expect(ids(page)).toEqual([b, a]);
    await before.close();
    const after = await startTestEmulator({ stateFile, ffmpegPath: false, timing: 'manual' });
    const again = await list(after.emulator);
    expect(again.generations.map(({ id, status, refunded_credits }) => [id, status, refunded_credits])).toEqual([
      [b, 'pending', 0],
      [a, 'completed', CHEAP_PRICE],
    ]);
  });
});
