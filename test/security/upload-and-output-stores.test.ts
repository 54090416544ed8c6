// Uploads live on disk under a byte cap (export stays small, the cap answers 507), and the output
// store never deletes a file whose signed URL is still valid, even far over its cap.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { client, makeEmulator } from '../helpers/emulator.js';
import { DEFAULT_API_KEY } from '../../src/config.js';
import { multipart, paddedPng } from '../helpers/images.js';
import { startCli, stopCli } from '../helpers/cli-process.js';

function upload(emulator: Emulator, data: Buffer) {
  const form = multipart({ model_slug: 'motion-lite-v1' }, { data });
  return client(emulator)
    .raw.post('/v1/media/uploads')
    .set('Authorization', `Bearer ${emulator.apiKey}`)
    .set('Content-Type', form.contentType)
    .send(form.body);
}

describe('uploads on disk', () => {
  it('keeps 10 MB uploads out of the state export, which stays small and answers 200', async () => {
    const emulator = makeEmulator({ ffmpegPath: false });
    const image = paddedPng(800, 600, 10 * 1024 * 1024);
    for (let i = 0; i < 3; i++) expect((await upload(emulator, image)).status).toBe(201);
    const state = await request(emulator.app).get('/_emulator/state');
    expect(state.status).toBe(200);
    expect(state.body.domain.uploads).toHaveLength(3);
    expect(JSON.stringify(state.body).length).toBeLessThan(100_000);
    // Import into the same emulator: the bytes are still in its upload store, so a render can use them.
    expect((await request(emulator.app).put('/_emulator/state').send(state.body)).status).toBe(200);
  });

  it('refuses an upload past maxUploadStoreBytes with 507 upload_storage_full and accepts uploads again after a reset', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, maxUploadStoreBytes: 3 * 1024 * 1024 });
    const image = paddedPng(800, 600, 2 * 1024 * 1024);
    const first = await upload(emulator, image);
    expect(first.status).toBe(201);
    const second = await upload(emulator, image);
    expect([second.status, second.body.error.code]).toEqual([507, 'upload_storage_full']);
    expect(second.body.error.message).toContain('reset');
    await request(emulator.app).post('/_emulator/reset');
    const again = await upload(emulator, image);
    expect(again.status).toBe(201);
  });

  it('refuses an import whose inline uploads pass the cap as 422 invalid_state, before writing any, and a fitting one after', async () => {
    const emulator = makeEmulator({ ffmpegPath: false, maxUploadStoreBytes: 100_000 });
    const exported = (await request(emulator.app).get('/_emulator/state')).body;
    const inline = (id: string, size: number) => ({
      id,
      accountId: 'acct_local',
      createdAt: exported.domain.clock.now,
      bytes: size,
      width: 1,
      height: 1,
      data: Buffer.alloc(size, 1).toString('base64'),
    });
    const withUploads = (...uploads: object[]) => ({ ...exported, domain: { ...exported.domain, uploads } });
    const refused = await request(emulator.app)
      .put('/_emulator/state')
      .send(withUploads(inline('upl_a', 60_000), inline('upl_b', 60_000)));
    expect([refused.status, refused.body.error.code]).toEqual([422, 'invalid_state']);
    expect(refused.body.error.problems[0].field).toBe('domain.uploads[1].data');
    expect(refused.body.error.message).toContain('--max-upload-store-bytes');
    expect((await request(emulator.app).get('/_emulator/state')).body.domain.uploads).toEqual([]);
    const fits = await request(emulator.app)
      .put('/_emulator/state')
      .send(withUploads(inline('upl_c', 60_000)));
    expect(fits.status).toBe(200);
  });
});

describe('the output store and live URLs', () => {
  it('serves every fresh output of 40 generations with a 1-byte store cap (nothing evicted while its URL is valid)', {
    timeout: 60_000,
  }, async () => {
    const lines: string[] = [];
    const emulator = makeEmulator({ ffmpegPath: false, maxStoreBytes: 1, log: (l) => lines.push(l) });
    const api = client(emulator);
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await api.submit(
        { model_slug: 'still-sketch-v1', prompt: `fresh ${i}`, max_credits: 100 },
        `store-key-${i}`,
      );
      ids.push(res.body.generation.id);
    }
    for (const id of ids) await emulator.control!.waitFor(id, 'completed');
    let served = 0;
    for (const id of ids) {
      const g = (await api.get(`/v1/media/generations/${id}`)).body.generation;
      const url = new URL(g.outputs[0].url);
      if ((await api.raw.get(`${url.pathname}${url.search}`)).status === 200) served++;
    }
    expect(served).toBe(40);
    expect(lines.some((l) => l.includes('over the 1-byte cap'))).toBe(true);
  });
});

describe('uploads with --state-file across a SIGTERM', () => {
  it('exports 200, saves the state on SIGTERM (exit 0) and has the uploads again after a restart', {
    timeout: 90_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sec-upload-state-'));
    const args = ['--timing', 'manual', '--seed', '4', '--state-file', join(dir, 'state.db')];
    const first = await startCli(args);
    const image = paddedPng(800, 600, 10 * 1024 * 1024);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const form = multipart({ model_slug: 'motion-lite-v1' }, { data: image });
      const res = await fetch(`${first.url}/v1/media/uploads`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${DEFAULT_API_KEY}`, 'Content-Type': form.contentType },
        body: form.body,
      });
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { id: string }).id);
    }
    expect((await fetch(`${first.url}/_emulator/state`)).status).toBe(200);
    const stopped = await stopCli(first, 'SIGTERM');
    expect(stopped.code).toBe(0);
    expect(first.output()).not.toContain('could not save state');
    const second = await startCli(args);
    try {
      const state = (await (await fetch(`${second.url}/_emulator/state`)).json()) as {
        domain: { uploads: { id: string }[] };
      };
      expect(state.domain.uploads.map((u) => u.id).sort()).toEqual([...ids].sort());
      expect(readdirSync(join(dir, 'state.db.uploads')).sort()).toEqual([...ids].sort());
    } finally {
      await stopCli(second, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
