// A JSON body with 200,000 extra members is a 422, never a 500 (no call stack grows with the input).
import { describe, expect, it } from 'vitest';
import { client, makeEmulator } from '../helpers/emulator.js';

describe('wide bodies', () => {
  it('answers 422 to a submission with 200,000 extra top-level members', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const body: Record<string, unknown> = { model_slug: 'still-sketch-v1', prompt: 'wide', max_credits: 100 };
    for (let i = 0; i < 200_000; i++) body[`extra_${i}`] = i;
    const res = await client(emulator).submit(body, 'wide-body-key-1');
    expect(res.status).toBe(422);
    expect(res.body.detail.length).toBeGreaterThan(0);
    expect(res.body.detail[0].type).toBe('extra_forbidden');
  });
});
