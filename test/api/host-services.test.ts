// The same core over a browser's host services, in Node: the store of record over sql.js (the page's SQLite, set up as
// sqlite-browser.ts sets it up) and reference uploads kept in memory, passed to the composition root as a host passes them.
import { createHash } from 'node:crypto';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { composeEmulator } from '../../src/emulator.js';
import type { Emulator } from '../../src/emulator-types.js';
import { setUpPageDatabase } from '../../src/infra/sqlite-browser.js';
import { sqliteStoreOver } from '../../src/infra/sqlite-store.js';
import { loadWasmSqlite, type WasmSqlConnection } from '../../src/infra/sqlite-wasm-driver.js';
import { createMemoryUploadBlobs } from '../../src/infra/upload-blobs.js';
import { type StoreFactory, storeOfRecordOver } from '../../src/store/store-of-record.js';
import { MODEL_A } from '../helpers/emulator.js';
import { png } from '../helpers/images.js';

const sqlite = await loadWasmSqlite();
const open: Emulator[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((emulator) => emulator.close()));
});

/** A page's database, from a kept image or new; closing it (the store's close) keeps its last image, as a page does. */
function pageDatabase(image?: Uint8Array) {
  const db = setUpPageDatabase(sqlite.open(image));
  const kept: { image?: Uint8Array } = {};
  const connection: WasmSqlConnection = {
    ...db,
    close() {
      kept.image = db.image();
      db.close();
    },
  };
  const openStore: StoreFactory = (deps, options) =>
    storeOfRecordOver(sqliteStoreOver(connection, 'page'), deps, {
      persistent: true,
      log: options.log,
      errorStatuses: options.errorStatuses,
      errorCodes: options.errorCodes,
      // A page has no setImmediate: a task after this one.
      defer: (settle) => void setTimeout(settle, 0),
    });
  return { openStore, kept };
}

function emulatorOver(openStore: StoreFactory, maxUploadStoreBytes?: number): Emulator {
  const { emulator } = composeEmulator(
    // A fixed base URL: supertest serves each request on a port of its own, which a signed link would name.
    { seed: 1, timing: 'manual', ffmpegPath: false, maxUploadStoreBytes, publicBaseUrl: 'http://emulator.test' },
    {
      host: { openStore, uploadBlobs: (options) => createMemoryUploadBlobs({ maxBytes: options.maxUploadStoreBytes }) },
    },
  );
  open.push(emulator);
  return emulator;
}

const api = (emulator: Emulator) => {
  const auth = { Authorization: `Bearer ${emulator.apiKey}` };
  return {
    get: (path: string) => request(emulator.app).get(path).set(auth),
    submit: (body: object, key: string) =>
      request(emulator.app).post('/v1/media/generations').set(auth).set('Idempotency-Key', key).send(body),
    upload: (data: Buffer) =>
      request(emulator.app)
        .post('/v1/media/uploads')
        .set(auth)
        .field('model_slug', MODEL_A)
        .field('target_slot', 'start_image')
        .attach('file', data, { filename: 'frame.png', contentType: 'image/png' }),
  };
};

describe('the core over a browser host services (sql.js store, uploads in memory), in Node', () => {
  it('charges and keeps its state in sql.js: an emulator over the kept image resumes it, signed links included', async () => {
    const first = pageDatabase();
    const before = emulatorOver(first.openStore);
    expect((await before.start()).loaded).toBe(false);
    const submitted = await api(before).submit(
      { model_slug: MODEL_A, prompt: 'a kept fox', max_credits: 1000 },
      'kept-fox-1',
    );
    expect(submitted.status, submitted.text).toBe(202);
    await before.advance(60_000);
    const done = await api(before).get(`/v1/media/generations/${submitted.body.generation.id}`);
    expect(done.body.generation.status).toBe('completed');
    const usage = await api(before).get('/v1/media/usage');
    await before.close();
    expect(first.kept.image).toBeDefined();

    const after = emulatorOver(pageDatabase(first.kept.image).openStore);
    expect((await after.start()).loaded).toBe(true);
    // The same answer, byte for byte: the records, the clock and the signing secret (kept in the store's meta) came back.
    const again = await api(after).get(`/v1/media/generations/${submitted.body.generation.id}`);
    expect(again.text).toBe(done.text);
    expect((await api(after).get('/v1/media/usage')).text).toBe(usage.text);
    const replay = await api(after).submit(
      { model_slug: MODEL_A, prompt: 'a kept fox', max_credits: 1000 },
      'kept-fox-1',
    );
    expect(replay.body.generation.id).toBe(submitted.body.generation.id);
    expect((await api(after).get('/v1/media/usage')).text).toBe(usage.text);
  });

  it('keeps upload bytes in memory under the same cap as on disk (whole 4 KiB blocks), and renders from them', async () => {
    const emulator = emulatorOver(pageDatabase().openStore, 2 * 4096);
    await emulator.start();
    const image = png(96, 80);
    const uploaded = await api(emulator).upload(image);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.sha256).toBe(createHash('sha256').update(image).digest('hex'));
    expect((await api(emulator).upload(png(96, 80, [1, 2, 3]))).status).toBe(201);
    const refused = await api(emulator).upload(png(96, 80, [4, 5, 6]));
    expect(refused.status).toBe(507);
    expect(refused.body.error.code).toBe('upload_storage_full');

    const submitted = await api(emulator).submit(
      { model_slug: MODEL_A, prompt: 'from a kept frame', refs: [uploaded.body.id], max_credits: 1000 },
      'from-frame-2',
    );
    expect(submitted.status).toBe(202);
    await emulator.advance(60_000);
    const done = await api(emulator).get(`/v1/media/generations/${submitted.body.generation.id}`);
    expect(done.body.generation.status).toBe('completed');
    const file = new URL(done.body.generation.outputs[0].url);
    const served = await request(emulator.app).get(`${file.pathname}${file.search}`);
    expect(served.status).toBe(200);
    expect(served.body.length).toBeGreaterThan(0);
  });
});
