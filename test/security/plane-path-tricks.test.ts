// Guard and router judge one path: a /_emulator path holding encoded slashes, backslashes or dot segments is refused
// before routing (400 path_not_canonical), so no plane handler runs without the admin token, and nothing is charged.
import { describe, expect, it } from 'vitest';
import { rawClient } from '../helpers/raw-http.js';
import { startTestEmulator } from '../helpers/emulator.js';

const TOKEN = 'sec-admin-token-0123456789';

const TRICKS = [
  '/_emulator/generations/..%2f..%2fx',
  '/_emulator/generations/..%2F..%2Fx',
  '/_emulator/generations/..%5c..%5cx',
  '/_emulator/generations/..%5C..%5Cx',
  '/_emulator/generations/..%252f..%252fx',
  '/_emulator/generations/%2e%2e%2f%2e%2e%2fx/fail',
  '/_emulator/generations/.%2E%2f..%2fx/journal',
  '/_emulator/journal/..%2f..%2fx',
  '/_emulator/accounts/..%2f..%2fx/balance',
  '/_emulator/faults/..%2f..%2fx',
  '/_emulator/generations/..\\..\\x',
  '/_emulator/generations/%2e%2e',
  '/_emulator/generations/.',
  '/_emulator/./generations',
  '/v1/media/..%2f_emulator%2fkeys',
];

describe('paths that would mean one thing to the guard and another to the router', () => {
  it('are refused before routing with 400 path_not_canonical, without the token, and charge nothing', async () => {
    const { url, emulator } = await startTestEmulator({ adminToken: TOKEN, seed: 1 });
    const http = rawClient(url, 1);
    const balance = async () =>
      (
        await http.send({
          method: 'GET',
          path: '/v1/media/usage',
          headers: [['Authorization', `Bearer ${emulator.apiKey}`]],
        })
      ).json().wallet_balance;
    const before = await balance();
    for (const path of TRICKS)
      for (const method of ['GET', 'POST']) {
        const res = await http.send({
          method,
          path,
          headers: [
            ['Content-Type', 'application/json'],
            ['Authorization', `Bearer ${emulator.apiKey}`],
          ],
          body: '{}',
        });
        expect([method, path, res.status, res.json().error?.code]).toEqual([method, path, 400, 'path_not_canonical']);
        expect(res.json().error.message).toContain('plain path');
      }
    expect(await balance()).toBe(before);
    http.close();
  });

  it('still lets plain plane paths through to the token check and then to their routes', async () => {
    const { url } = await startTestEmulator({ adminToken: TOKEN, seed: 1 });
    const http = rawClient(url, 1);
    const plain = await http.send({ method: 'GET', path: '/_emulator/generations/gen_000001' });
    expect([plain.status, plain.json().error.code]).toEqual([401, 'admin_token_required']);
    const withToken = await http.send({
      method: 'GET',
      path: '/_emulator/generations/gen_000001',
      headers: [['X-Emulator-Admin-Token', TOKEN]],
    });
    expect([withToken.status, withToken.json().error.code]).toEqual([404, 'generation_not_found']);
    http.close();
  });
});
