// Finding 13: inconsistent state imports, suffix ranges, header-only images, and temp dirs left by failed starts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { client, makeEmulator } from '../helpers/emulator.js';
import { multipart, pngHeader } from '../helpers/images.js';
import { freshTmp, leftUnder, startCli } from '../helpers/cli-process.js';

async function exported(emulator: ReturnType<typeof makeEmulator>) {
  const api = client(emulator);
  await api.submit({ model_slug: 'still-sketch-v1', prompt: 'one', max_credits: 100 }, 'state-key-1');
  return (await request(emulator.app).get('/_emulator/state')).body;
}

describe('state import checks its invariants', () => {
  it.each([
    [
      'a balance that differs from the ledger',
      (s: any) => (s.domain.balances.acct_local += 5),
      'domain.balances.acct_local',
    ],
    [
      'a charge that takes the balance below zero',
      (s: any) => (s.domain.ledger.find((e: any) => e.type === 'charge').amount = 10_000_000),
      'domain.ledger[1].amount',
    ],
    ['a generation without its charge', (s: any) => s.domain.ledger.splice(1, 1), 'domain.generations[0]'],
    [
      'a refund larger than the charge',
      (s: any) => s.domain.ledger.push({ ...s.domain.ledger[1], type: 'refund', amount: 1_000, seq: 3, id: 'led_x' }),
      'domain.ledger[2].amount',
    ],
    [
      'a ledger entry of an unknown account',
      (s: any) => (s.domain.ledger[0].accountId = 'acct_ghost'),
      'domain.ledger[0].accountId',
    ],
  ])('refuses %s with 422 invalid_state naming the first bad field', async (_what, spoil, field) => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const state = await exported(emulator);
    spoil(state);
    const res = await request(emulator.app).put('/_emulator/state').send(state);
    expect([res.status, res.body.error.code]).toEqual([422, 'invalid_state']);
    expect(res.body.error.message).toContain(`${field}:`);
  });

  it('accepts its own export', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const state = await exported(emulator);
    expect((await request(emulator.app).put('/_emulator/state').send(state)).status).toBe(200);
  });
});

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

describe('header-only images', () => {
  it('refuses a 45-byte PNG (signature and header, no pixels) at upload with 415', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const image = pngHeader(640, 360, 45);
    expect(image.length).toBe(45);
    const form = multipart({ model_slug: 'motion-lite-v1' }, { data: image });
    const res = await client(emulator)
      .raw.post('/v1/media/uploads')
      .set('Authorization', `Bearer ${emulator.apiKey}`)
      .set('Content-Type', form.contentType)
      .send(form.body);
    expect([res.status, res.body.error.code]).toEqual([415, 'unsupported_media_type']);
    expect(res.body.error.message).toContain('could not be decoded');
  });
});

describe('failed starts', () => {
  it.each([
    ['an unknown scenario', ['--scenario', 'no-such-scenario'], /No scenario named 'no-such-scenario'/],
    ['a state file that is not JSON', ['--state-file', 'BAD_STATE'], /is not valid JSON/],
    [
      'a state file in a folder that does not exist',
      ['--state-file', 'MISSING_FOLDER'],
      /cannot be written \(ENOENT\): its folder must exist/,
    ],
  ])(
    'say why in one line, exit 2 and leave nothing under TMPDIR after %s',
    { timeout: 60_000 },
    async (_what, args, why) => {
      const tmp = freshTmp();
      const folder = mkdtempSync(join(tmpdir(), 'sec-bad-'));
      const bad = join(folder, 'state.json');
      writeFileSync(bad, '{ not json');
      const paths: Record<string, string> = {
        BAD_STATE: bad,
        MISSING_FOLDER: join(folder, 'no-such-folder', 'state.json'),
      };
      const failure = await startCli(
        args.map((a) => paths[a] ?? a),
        { tmp },
      ).then(
        () => new Error('the CLI started'),
        (error: Error) => error,
      );
      expect(failure.message).toMatch(/exited with 2/);
      expect(failure.message).toMatch(why);
      // One line from the CLI, no stack trace.
      expect(failure.message).not.toMatch(/\n\s+at /);
      expect(leftUnder(tmp)).toEqual([]);
    },
  );
});
