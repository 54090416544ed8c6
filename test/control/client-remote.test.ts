// The shared control-client contract against connectEmulator() over HTTP, plus what only the remote client has.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { connectEmulator } from '../../src/index.js';
import { startSharedEmulator, startTestEmulator } from '../helpers/emulator.js';
import { CONTRACT_OPTIONS, controlClientContract } from './client-contract.js';

controlClientContract('remote', async () => {
  const running = await startSharedEmulator({ ...CONTRACT_OPTIONS });
  return { ...running, control: connectEmulator(running.url) };
});

describe('connectEmulator', () => {
  it('sends the admin token when the emulator requires one', async () => {
    const running = await startTestEmulator({ ...CONTRACT_OPTIONS, adminToken: 'admin-secret-1' });
    await expect(connectEmulator(running.url).clock()).rejects.toMatchObject({
      code: 'admin_token_required',
      status: 401,
    });
    await expect(connectEmulator(running.url, { adminToken: 'wrong' }).clock()).rejects.toMatchObject({
      code: 'admin_token_invalid',
    });
    expect((await connectEmulator(`${running.url}/`, { adminToken: 'admin-secret-1' }).clock()).frozen).toBe(true);
  });

  it('gives the API key only with the admin token when the emulator requires one', async () => {
    const running = await startTestEmulator({
      ...CONTRACT_OPTIONS,
      apiKey: 'sk-media-remote-seeded-1',
      adminToken: 'adm-1',
    });
    await expect(connectEmulator(running.url).apiKey()).rejects.toMatchObject({ code: 'admin_token_required' });
    expect(await connectEmulator(running.url, { adminToken: 'adm-1' }).apiKey()).toBe('sk-media-remote-seeded-1');
    const health = await (await fetch(`${running.url}/_emulator/health`)).text();
    expect(health).not.toContain('sk-media-remote-seeded-1');
  });

  it('says the emulator is unreachable when nothing listens at the URL', async () => {
    const running = await startTestEmulator({ ...CONTRACT_OPTIONS });
    const { url } = running;
    await running.close();
    await expect(connectEmulator(url).clock()).rejects.toMatchObject({ code: 'emulator_unreachable', status: 0 });
  });

  it('reads a scenario file itself and sends it inline, since the emulator opens no path sent over HTTP', async () => {
    const running = await startTestEmulator({ ...CONTRACT_OPTIONS });
    const file = fileURLToPath(new URL('../../fixtures/scenarios/insufficient-credits.json', import.meta.url));
    const active = await connectEmulator(running.url).scenario.load(file);
    expect(active.name).toBe('insufficient-credits');
    await expect(connectEmulator(running.url).scenario.load('/no/such/scenario.json')).rejects.toMatchObject({
      code: 'scenario_not_found',
      status: 0,
    });
  });

  it('signs output links for the base URL it is given', async () => {
    const running = await startTestEmulator({ ...CONTRACT_OPTIONS });
    const control = connectEmulator(running.url);
    const res = await fetch(`${running.url}/v1/media/generations`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${running.apiKey}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': 'remote-links-1',
      },
      body: JSON.stringify({ model_slug: 'still-sketch-v1', prompt: 'a fox', max_credits: 10 }),
    });
    const { generation } = (await res.json()) as { generation: { id: string } };
    control.setBaseUrl('https://media.example.test/emu');
    const done = await control.waitFor(generation.id, 'completed');
    expect(done.outputs[0].url).toMatch(/^https:\/\/media\.example\.test\/emu\/files\//);
  });
});
