// A completed output whose file is gone (a restart on the same state file) is rendered again on request: the same
// bytes, one render for a burst, refusals before any work, 503 output_unavailable when the render fails, and 404
// output_not_found when the inputs of the first render (its model, its reference image) are gone for good.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator, EmulatorOptions } from '../../src/index.js';
import { createSigner } from '../../src/infra/signer.js';
import { nodeCrypto } from '../../src/infra/node/node-crypto.js';
import { freshTmp } from '../helpers/cli-process.js';
import { client, MODEL_A, makeEmulator } from '../helpers/emulator.js';
import { multipart, png } from '../helpers/images.js';
import { TOOLS } from './media-test-kit.js';

const START = '2025-06-01T08:00:00.000Z';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Options for emulators that share one state file, and the lines they log. */
function stateOptions(extra: EmulatorOptions = {}): { options: EmulatorOptions; lines: string[]; dir: string } {
  const dir = freshTmp();
  dirs.push(dir);
  const lines: string[] = [];
  const options: EmulatorOptions = {
    clockStart: START,
    seed: 1,
    stateFile: join(dir, 'state.db'),
    storageDir: join(dir, 'renders'),
    log: (line) => lines.push(line),
    ...extra,
  };
  mkdirSync(options.storageDir!);
  return { options, lines, dir };
}

async function started(options: EmulatorOptions, mode: 'ffmpeg' | 'fixture'): Promise<Emulator> {
  const emulator = makeEmulator(options);
  await emulator.start();
  await emulator.ready;
  // These tests are about the renderer each mode really runs: a missing ffmpeg must fail them, not switch modes.
  expect(emulator.rendererInfo()?.mode, `ffmpeg at ${TOOLS.ffmpeg} was not used`).toBe(mode);
  return emulator;
}

/** Submits, completes and reads one generation: its id and the path and query of its first output link. */
async function completed(emulator: Emulator, key: string, body: Record<string, unknown> = {}) {
  const api = client(emulator);
  const res = await api.submit({ model_slug: MODEL_A, prompt: 'a tram at night', max_credits: 1000, ...body }, key);
  expect(res.status).toBe(202);
  await emulator.advance(60_000);
  const id = res.body.generation.id as string;
  return { id, link: await freshLink(emulator, id) };
}

async function freshLink(emulator: Emulator, id: string): Promise<string> {
  const read = await client(emulator).get(`/v1/media/generations/${id}`);
  expect(read.body.generation.status).toBe('completed');
  const url = new URL(read.body.generation.outputs[0].url as string);
  return `${url.pathname}${url.search}`;
}

async function download(emulator: Emulator, link: string): Promise<{ status: number; body: Buffer }> {
  const res = await client(emulator)
    .raw.get(link)
    .buffer(true)
    .parse((stream, done) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => done(null, Buffer.concat(chunks)));
    });
  return { status: res.status, body: res.body as Buffer };
}

const errorCode = (res: { status: number; body: Buffer }) =>
  `${res.status} ${JSON.parse(res.body.toString('utf8')).error.code}`;
const rendersAgain = (lines: string[]) => lines.filter((l) => l.includes('was no longer stored: rendered again'));

describe.each(['ffmpeg', 'fixture'] as const)('an output lost with its process (%s renderer)', (mode) => {
  const modeOptions: EmulatorOptions = mode === 'fixture' ? { ffmpegPath: false } : {};

  it('is rendered again after a restart: the old link and a fresh one serve the bytes of the first render', {
    timeout: 60_000,
  }, async () => {
    const { options, lines } = stateOptions(modeOptions);
    const first = await started(options, mode);
    const { id, link } = await completed(first, `lost-restart-${mode}`);
    const original = await download(first, link);
    expect(original.status).toBe(200);
    await first.close();

    const second = await started(options, mode);
    const again = await download(second, link);
    expect(again.status).toBe(200);
    expect(again.body.equals(original.body)).toBe(true);
    const fresh = await download(second, await freshLink(second, id));
    expect(fresh.status).toBe(200);
    expect(fresh.body.equals(original.body)).toBe(true);
    expect(rendersAgain(lines)).toEqual([`output 0 of ${id} was no longer stored: rendered again`]);
  });
});

describe('a lost output', () => {
  it('is rendered once for a burst of eight requests for it', { timeout: 60_000 }, async () => {
    const { options, lines } = stateOptions();
    const first = await started(options, 'ffmpeg');
    const { link } = await completed(first, 'lost-burst');
    const original = await download(first, link);
    await first.close();

    const second = await started(options, 'ffmpeg');
    const answers = await Promise.all(Array.from({ length: 8 }, () => download(second, link)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    for (const answer of answers) expect(answer.body.equals(original.body)).toBe(true);
    expect(rendersAgain(lines)).toHaveLength(1);
  });

  it('is not rendered for an expired, forged or scripted-missing link, which are refused as before', {
    timeout: 60_000,
  }, async () => {
    const { options, lines } = stateOptions({ ffmpegPath: false });
    const first = await started(options, 'fixture');
    const kept = await completed(first, 'lost-refusals-1');
    const missing = await completed(first, 'lost-refusals-2', { prompt: 'a tram [emulator:missing-outputs]' });
    expect(errorCode(await download(first, missing.link))).toBe('404 output_not_found');
    await first.close();

    const second = await started(options, 'fixture');
    // The scripted failure is part of the kept generation: still refused after the restart, fresh link or not.
    expect(errorCode(await download(second, missing.link))).toBe('404 output_not_found');
    expect(errorCode(await download(second, await freshLink(second, missing.id)))).toBe('404 output_not_found');
    const path = new URL(kept.link, 'http://x').pathname;
    const forged = `${path}?expires=9999999999&signature=${createSigner('guessed', nodeCrypto).sign(path, 9999999999)}`;
    expect(errorCode(await download(second, forged))).toBe('403 url_signature_invalid');
    await second.advance(2 * 3_600_000);
    expect(errorCode(await download(second, kept.link))).toBe('403 url_expired');
    expect(rendersAgain(lines)).toEqual([]);
  });

  it('answers 503 output_unavailable when rendering it again fails, and the generation keeps its status and charge', {
    timeout: 60_000,
  }, async () => {
    const { options, lines } = stateOptions();
    const first = await started(options, 'ffmpeg');
    const { id, link } = await completed(first, 'lost-failing');
    const balance = (await client(first).get('/v1/media/usage')).body.wallet_balance;
    await first.close();

    // Restarted with a render timeout no ffmpeg run can meet: the render is killed, as one overrunning under load is.
    const second = await started({ ...options, renderTimeout: 1 }, 'ffmpeg');
    const res = await download(second, link);
    expect(errorCode(res)).toBe('503 output_unavailable');
    expect(JSON.parse(res.body.toString('utf8')).error.message).toMatch(/Try again in a moment/);
    expect(lines.some((l) => l.includes(`rendering output 0 of ${id} again failed`))).toBe(true);
    const read = await client(second).get(`/v1/media/generations/${id}`);
    expect(read.body.generation.status).toBe('completed');
    expect((await client(second).get('/v1/media/usage')).body.wallet_balance).toBe(balance);
    await second.close();

    // The failure is not remembered: with time to render, the same link serves the file.
    const third = await started(options, 'ffmpeg');
    expect((await download(third, link)).status).toBe(200);
  });

  it('answers 404 output_not_found, rendering nothing else, when the reference image it was made from is gone', {
    timeout: 60_000,
  }, async () => {
    const { options, lines, dir } = stateOptions({ ffmpegPath: false });
    const first = await started(options, 'fixture');
    const form = multipart({ model_slug: MODEL_A }, { data: png(96, 64) });
    const upload = await client(first).post('/v1/media/uploads').set('Content-Type', form.contentType).send(form.body);
    expect(upload.status).toBe(201);
    const { link } = await completed(first, 'lost-image', { refs: [upload.body.id] });
    expect((await download(first, link)).status).toBe(200);
    await first.close();
    // Without its start image, a render would draw other pixels than the file the link was signed for.
    rmSync(join(dir, 'state.db.uploads', upload.body.id as string));

    const second = await started(options, 'fixture');
    const res = await download(second, link);
    expect(errorCode(res)).toBe('404 output_not_found');
    expect(JSON.parse(res.body.toString('utf8')).error.message).toMatch(
      /cannot be rendered again: a reference image it was made from is no longer stored/,
    );
    expect(rendersAgain(lines)).toEqual([]);
  });

  it('answers 404 output_not_found when its model has left the catalogue the emulator restarted with', {
    timeout: 60_000,
  }, async () => {
    const { options, lines } = stateOptions({ ffmpegPath: false });
    const first = await started(options, 'fixture');
    const { link } = await completed(first, 'lost-model');
    await first.close();

    const shipped = JSON.parse(readFileSync(new URL('../../fixtures/catalogue.json', import.meta.url), 'utf8'));
    const catalogue = { ...shipped, models: shipped.models.filter((m: { slug: string }) => m.slug !== MODEL_A) };
    const second = await started({ ...options, catalogue }, 'fixture');
    const res = await download(second, link);
    expect(errorCode(res)).toBe('404 output_not_found');
    expect(JSON.parse(res.body.toString('utf8')).error.message).toContain(
      `its model ${MODEL_A} is no longer in the catalogue`,
    );
    expect(rendersAgain(lines)).toEqual([]);
  });
});
