// Security of the control plane: the admin token is enforced everywhere but health and the console; the plane can be turned off.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { controlled } from '../helpers/controlled-emulator.js';

const TOKEN = 'local-admin-token-123';

describe('admin token', () => {
  const paths: [string, string][] = [
    ['get', '/_emulator/accounts'],
    ['post', '/_emulator/reset'],
    ['get', '/_emulator/faults'],
    ['post', '/_emulator/faults'],
    ['get', '/_emulator/journal'],
    ['get', '/_emulator/state'],
    ['post', '/_emulator/clock/advance'],
    ['get', '/_emulator/scenarios'],
    ['post', '/_emulator/generations/gen_000001/refund'],
  ];

  it.each(paths)('%s %s needs the token', async (method, path) => {
    const { emulator } = controlled({ adminToken: TOKEN });
    const agent = request(emulator.app) as unknown as Record<string, (p: string) => request.Test>;
    const none = await agent[method](path);
    expect([none.status, none.body.error.code]).toEqual([401, 'admin_token_required']);
    const wrong = await agent[method](path).set('Authorization', 'Bearer not-the-token');
    expect([wrong.status, wrong.body.error.code]).toEqual([401, 'admin_token_invalid']);
    const right = await agent[method](path).set('X-Emulator-Admin-Token', TOKEN);
    expect(right.status).not.toBe(401);
  });

  it('accepts the token as a bearer token too, and never asks for it on health, the console or /v1/media', async () => {
    const { emulator, api } = controlled({ adminToken: TOKEN });
    expect(
      (await request(emulator.app).get('/_emulator/accounts').set('Authorization', `Bearer ${TOKEN}`)).status,
    ).toBe(200);
    expect((await request(emulator.app).get('/_emulator/health')).status).toBe(200);
    expect((await request(emulator.app).get('/_emulator/console')).status).not.toBe(401);
    expect((await api.get('/v1/media/models')).status).toBe(200);
  });

  it('leaves the in-process client alone: it is the test’s own process', async () => {
    const { control } = controlled({ adminToken: TOKEN });
    expect(await control.faults.list()).toEqual([]);
  });
});

describe('control plane turned off', () => {
  it('serves no /_emulator/* route but health; the in-process client and the rules still work', async () => {
    const { emulator, control, api } = controlled({ controlPlane: false });
    expect((await request(emulator.app).get('/_emulator/health')).status).toBe(200);
    for (const path of ['/_emulator/faults', '/_emulator/journal', '/_emulator/accounts']) {
      const res = await request(emulator.app).get(path);
      expect([res.status, res.body.error.code]).toEqual([404, 'route_not_found']);
    }
    expect((await request(emulator.app).post('/_emulator/reset')).status).toBe(404);
    expect((await request(emulator.app).get('/_emulator/console')).status).toBe(404);
    await control.faults.add({ action: { type: 'status', status: 503 } });
    expect((await api.get('/v1/media/models')).status).toBe(503);
  });
});
