// The journal stays within its byte budget however large the requests it records: a flood of long paths, queries and
// keys leaves GET /_emulator/journal under the size the docs state, with the newest entries in it.
import { afterEach, describe, expect, it } from 'vitest';
import { JOURNAL_BYTE_BUDGET } from '../../src/emulation/journal/journal-store.js';
import { startEmulator } from '../../src/index.js';

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

/** docs/control-plane.md: the list answers at most 4 MiB of entries, in `{"entries":[...]}`. */
const STATED_LIMIT = 4 * 1024 * 1024 + '{"entries":[]}'.length;

describe('the journal under a flood of large requests', () => {
  it('keeps its answer under the stated size, and keeps the newest entries', { timeout: 120_000 }, async () => {
    expect(JOURNAL_BYTE_BUDGET + '{"entries":[]}'.length).toBe(STATED_LIMIT);
    const emulator = await startEmulator({ timing: 'manual', ffmpegPath: false, seed: 3 });
    running.push(emulator);
    const { url, apiKey } = emulator;
    const total = 2_000;
    // Each is recorded with its texts cut at 1,024 characters: about 3.3 KB listed, 6.6 MB for all of them.
    const send = (i: number) =>
      fetch(`${url}/v1/media/generations/gen_${i}_${'x'.repeat(1100)}?i=${i}&q=${'y'.repeat(1100)}`, {
        headers: { Authorization: `Bearer ${apiKey}`, 'Idempotency-Key': `${i}-${'k'.repeat(1100)}` },
      }).then((res) => res.arrayBuffer());
    let next = 0;
    const worker = async () => {
      while (next < total) await send(next++);
    };
    await Promise.all(Array.from({ length: 8 }, worker));

    const answer = await fetch(`${url}/_emulator/journal`);
    const text = await answer.text();
    expect(answer.status).toBe(200);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(STATED_LIMIT);
    const entries = (JSON.parse(text) as { entries: { id: number; query: string }[] }).entries;
    // The newest ones, with no gap: the ids end at the last request's and run on by one.
    expect(entries.length).toBeGreaterThan(1_000);
    expect(entries.length).toBeLessThan(total);
    expect(entries.at(-1)?.id).toBe(total);
    expect(entries.map((e) => e.id)).toEqual(
      Array.from({ length: entries.length }, (_, i) => total - entries.length + 1 + i),
    );
    expect(entries.at(-1)?.query).toMatch(new RegExp(`^i=${total - 1}&q=y+$`));
  });
});
