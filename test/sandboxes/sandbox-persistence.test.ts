// Sandboxes with a state file: they and their state survive a restart, in the one database of every world (kill -9 of
// the CLI: sandbox-kill9.test.ts).
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCheckedEmulator } from '../helpers/contract.js';
import { png } from '../helpers/images.js';
import { call, submission } from './sandbox-http.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const stateDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sbx-state-'));
  dirs.push(dir);
  return dir;
};

describe('sandboxes with a state file', () => {
  it('come back after close and start with their key, token, rows, rules and signing secret', async () => {
    const stateFile = join(stateDir(), 'state.db');
    const first = createCheckedEmulator({ timing: 'manual', ffmpegPath: false, stateFile });
    const { url } = await first.start({ port: 0 });
    const sandbox = (await call(url, 'POST', '/_emulator/sandboxes', { body: { label: 'kept', balance: 900 } })).body;
    const made = await call(url, 'POST', '/v1/media/generations', { bearer: sandbox.apiKey, body: submission });
    await call(url, 'POST', `/_emulator/sandboxes/${sandbox.id}/generations/${made.body.generation.id}/complete`);
    await first.settle();
    const link = (
      await call(url, 'GET', `/v1/media/generations/${made.body.generation.id}`, { bearer: sandbox.apiKey })
    ).body.generation.outputs[0].url as string;
    await call(url, 'POST', '/_emulator/faults', {
      bearer: sandbox.token,
      body: {
        id: 'kept-rule',
        match: { method: 'get', route: '/v1/media/usage' },
        action: { type: 'status', status: 503 },
      },
    });
    await first.close();

    const second = createCheckedEmulator({ timing: 'manual', ffmpegPath: false, stateFile });
    const again = await second.start({ port: 0 });
    try {
      expect((await call(again.url, 'GET', `/_emulator/sandboxes/${sandbox.id}`)).body).toMatchObject({
        id: sandbox.id,
        label: 'kept',
        apiKey: sandbox.apiKey,
      });
      const list = await call(again.url, 'GET', '/v1/media/generations', { bearer: sandbox.apiKey });
      expect(list.body.generations.map((g: { id: string }) => g.id)).toEqual([made.body.generation.id]);
      expect((await call(again.url, 'GET', '/_emulator/faults', { bearer: sandbox.token })).body.faults).toHaveLength(
        1,
      );
      expect((await call(again.url, 'GET', '/v1/media/usage', { bearer: sandbox.apiKey })).status).toBe(503);
      // The default world is as it was: nothing of the sandbox's.
      expect(
        (await call(again.url, 'GET', '/v1/media/generations', { bearer: second.apiKey })).body.generations,
      ).toEqual([]);
      const moved = new URL(link);
      const download = await fetch(`${again.url}${moved.pathname}${moved.search}`);
      expect(download.status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('keep their uploads in a folder of their own beside the state file, which a deletion removes', async () => {
    const stateFile = join(stateDir(), 'state.db');
    const emulator = createCheckedEmulator({ timing: 'manual', ffmpegPath: false, stateFile });
    const { url } = await emulator.start({ port: 0 });
    try {
      const sandbox = (await call(url, 'POST', '/_emulator/sandboxes', { body: {} })).body;
      const form = new FormData();
      form.set('model_slug', 'motion-lite-v1');
      form.set('target_slot', 'start_image');
      form.set('file', new Blob([png()], { type: 'image/png' }), 'frame.png');
      const uploaded = await fetch(`${url}/v1/media/uploads`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${sandbox.apiKey}` },
        body: form,
      });
      expect(uploaded.status).toBe(201);
      const folder = `${stateFile}.sandboxes/${sandbox.id}.uploads`;
      expect(readdirSync(folder)).toHaveLength(1);

      expect((await call(url, 'DELETE', `/_emulator/sandboxes/${sandbox.id}`)).status).toBe(204);
      expect(existsSync(folder)).toBe(false);
    } finally {
      await emulator.close();
    }
  });
});
