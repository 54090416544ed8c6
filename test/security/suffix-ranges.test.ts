// Suffix byte ranges on output files: a suffix longer than the file is the whole file with 206, as RFC 9110 says.
import { describe, expect, it } from 'vitest';
import { client, makeEmulator } from '../helpers/emulator.js';

describe('suffix ranges', () => {
  it('answers 206 with the whole file when the suffix is longer than the file (RFC 9110 14.1.2)', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const api = client(emulator);
    const accepted = await api.submit(
      { model_slug: 'still-sketch-v1', prompt: 'range', max_credits: 100 },
      'range-key-1',
    );
    await emulator.control!.waitFor(accepted.body.generation.id, 'completed');
    const g = (await api.get(`/v1/media/generations/${accepted.body.generation.id}`)).body.generation;
    const url = new URL(g.outputs[0].url);
    const size = g.outputs[0].bytes as number;
    const res = await api.raw.get(`${url.pathname}${url.search}`).set('Range', `bytes=-${size + 1000}`);
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 0-${size - 1}/${size}`);
    const part = await api.raw.get(`${url.pathname}${url.search}`).set('Range', 'bytes=-10');
    expect([part.status, part.headers['content-range']]).toEqual([206, `bytes ${size - 10}-${size - 1}/${size}`]);
  });
});
