// Signed output links: the signing secret is random per state and never derived from --seed, so nobody can forge a
// link from a seed; a reset or an import rotates it, so a link handed out before answers 403 after, even when the same
// id now names another generation. Identical links across runs take an explicit --signing-secret.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { cliOptions } from '../../src/cli/options.js';
import type { Emulator } from '../../src/index.js';
import { createSigner } from '../../src/infra/signer.js';
import { nodeCrypto } from '../../src/infra/node/node-crypto.js';
import { client, MODEL_A, makeEmulator } from '../helpers/emulator.js';
import { freshTmp } from '../helpers/cli-process.js';

const START = '2025-06-01T08:00:00.000Z';

/** Submits and completes one generation; the path and query of its first output link. */
async function completedLink(emulator: Emulator, key: string): Promise<string> {
  const res = await client(emulator).submit({ model_slug: MODEL_A, prompt: 'a tram at night', max_credits: 1000 }, key);
  expect(res.status).toBe(202);
  await emulator.advance(60_000);
  const read = await client(emulator).get(`/v1/media/generations/${res.body.generation.id}`);
  expect(read.body.generation.status).toBe('completed');
  const url = new URL(read.body.generation.outputs[0].url as string);
  return `${url.pathname}${url.search}`;
}

const fetchStatus = async (emulator: Emulator, link: string) => {
  const res = await request(emulator.app).get(link);
  return res.status === 403 || res.status === 404 ? `${res.status} ${res.body.error?.code}` : String(res.status);
};

describe('the signing secret', () => {
  it('is not derived from the seed: a link forged with "seed-1" for a far expiry answers 403', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START, seed: 1 });
    const link = await completedLink(emulator, 'signed-forge-1');
    const path = new URL(link, 'http://x').pathname;
    const forged = `${path}?expires=999999999999&signature=${createSigner('seed-1', nodeCrypto).sign(path, 999999999999)}`;
    expect(await fetchStatus(emulator, forged)).toBe('403 url_signature_invalid');
    expect(await fetchStatus(emulator, link)).toBe('200');
  });

  it('is random per emulator: two emulators with the same seed sign the same output differently', async () => {
    const [a, b] = [1, 2].map(() => makeEmulator({ ffmpegPath: false, clockStart: START, seed: 7 }));
    const [linkA, linkB] = [await completedLink(a, 'signed-same-1'), await completedLink(b, 'signed-same-1')];
    expect(new URL(linkA, 'http://x').pathname).toBe(new URL(linkB, 'http://x').pathname);
    expect(linkA).not.toBe(linkB);
    expect(await fetchStatus(b, linkA)).toBe('403 url_signature_invalid');
  });

  it('rotates on reset: a link from before answers 403, though the same id now names a new completed generation', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START, seed: 1 });
    const before = await completedLink(emulator, 'signed-reset-1');
    await request(emulator.app).post('/_emulator/reset').expect(200);
    const after = await completedLink(emulator, 'signed-reset-1');
    expect(new URL(after, 'http://x').pathname).toBe(new URL(before, 'http://x').pathname);
    expect(await fetchStatus(emulator, before)).toBe('403 url_signature_invalid');
    expect(await fetchStatus(emulator, after)).toBe('200');
  });

  it('rotates on import: a link from before the import answers 403, links signed after it work', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, clockStart: START, seed: 1 });
    const before = await completedLink(emulator, 'signed-import-1');
    const state = (await request(emulator.app).get('/_emulator/state')).body;
    await request(emulator.app).put('/_emulator/state').send(state).expect(200);
    expect(await fetchStatus(emulator, before)).toBe('403 url_signature_invalid');
    const id = new URL(before, 'http://x').pathname.split('/')[2];
    const reread = await client(emulator).get(`/v1/media/generations/${id}`);
    const url = new URL(reread.body.generation.outputs[0].url as string);
    expect(await fetchStatus(emulator, `${url.pathname}${url.search}`)).toBe('200');
  });

  it('with --signing-secret gives the same links on every run, and still rotates on reset', async () => {
    const options = { ffmpegPath: false as const, clockStart: START, seed: 1, signingSecret: 'shared-secret-for-ci' };
    const [a, b] = [makeEmulator(options), makeEmulator(options)];
    const first = await completedLink(a, 'signed-fixed-1');
    expect(await completedLink(b, 'signed-fixed-1')).toBe(first);
    await request(a.app).post('/_emulator/reset').expect(200);
    expect(await fetchStatus(a, first)).toBe('403 url_signature_invalid');
    await request(b.app).post('/_emulator/reset').expect(200);
    expect(await completedLink(a, 'signed-fixed-2')).toBe(await completedLink(b, 'signed-fixed-2'));
  });

  it('is kept with the state: a link signed before a restart on the same --state-file still verifies after it', async () => {
    const dir = freshTmp();
    const options = {
      ffmpegPath: false as const,
      clockStart: START,
      seed: 1,
      stateFile: join(dir, 'state.db'),
      storageDir: join(dir, 'files'),
    };
    mkdirSync(options.storageDir);
    try {
      const first = makeEmulator(options);
      await first.start();
      const link = await completedLink(first, 'signed-restart-1');
      await first.close();
      const second = makeEmulator(options);
      expect((await second.start()).loaded).toBe(true);
      // The signature verifies (a bad one is 403); the file, lost with the first process, is rendered again.
      expect(await fetchStatus(second, link)).toBe('200');
      await request(second.app).post('/_emulator/reset').expect(200);
      await second.close();
      const third = makeEmulator(options);
      await third.start();
      expect(await fetchStatus(third, link)).toBe('403 url_signature_invalid');
      await third.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is set by --signing-secret or MEDIA_EMULATOR_SIGNING_SECRET, the flag winning', () => {
    expect(cliOptions(['--signing-secret', 'from-flag'], {})).toMatchObject({ signingSecret: 'from-flag' });
    expect(cliOptions([], { MEDIA_EMULATOR_SIGNING_SECRET: 'from-env' })).toMatchObject({ signingSecret: 'from-env' });
    expect(cliOptions(['--signing-secret', 'from-flag'], { MEDIA_EMULATOR_SIGNING_SECRET: 'from-env' })).toMatchObject({
      signingSecret: 'from-flag',
    });
  });
});
