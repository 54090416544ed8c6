// No host file can be read, leaked or used to exhaust memory through scenarios.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createEmulatorApp } from '../../src/index.js';
import { makeEmulator } from '../helpers/emulator.js';

const load = (emulator: ReturnType<typeof makeEmulator>, body: unknown) =>
  request(emulator.app)
    .post('/_emulator/scenarios')
    .send(body as object);

describe('scenarios over HTTP', () => {
  it.each([
    '/etc/passwd',
    '/proc/self/environ',
    '/dev/zero',
    '../../../../etc/passwd',
    'fixtures/scenarios/flaky-network.json',
    'flaky-network.json',
    '..',
  ])('refuses the name %s as an unknown scenario without opening anything', async (name) => {
    const emulator = makeEmulator();
    const res = await load(emulator, { name });
    expect([res.status, res.body.error.code]).toEqual([404, 'scenario_not_found']);
    expect(res.body.error.message).not.toMatch(/root:|PATH=|HOME=/);
    expect(res.body.error.message).toContain('flaky-network');
  });

  it('still loads a shipped scenario by name, and an inline scenario object', async () => {
    const emulator = makeEmulator();
    expect((await load(emulator, { name: 'flaky-network' })).status).toBe(200);
    const inline = await load(emulator, {
      scenario: { name: 'inline-one', steps: [{ op: 'set_balance', balance: 5 }] },
    });
    expect([inline.status, inline.body.active.name]).toEqual([200, 'inline-one']);
  });
});

describe('scenario files from trusted callers (CLI, in-process options)', () => {
  it('refuses a device or special file at once instead of reading it forever', () => {
    for (const path of ['/dev/zero', '/dev/urandom', '/dev/null'])
      expect(() => createEmulatorApp({ scenario: path, ffmpegPath: false })).toThrow(/is not a regular file/);
  });

  it('reads /proc/self/environ (a regular file that stat calls empty) without echoing the environment', () => {
    expect(() => createEmulatorApp({ scenario: '/proc/self/environ', ffmpegPath: false })).toThrow(
      /^Scenario \/proc\/self\/environ is not valid JSON\.$/,
    );
  });

  it('refuses a file over the size cap and never quotes the content of a file that is not a scenario', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sec-scenario-'));
    const big = join(dir, 'big.json');
    writeFileSync(big, `{"name":"x","pad":"${'a'.repeat(300 * 1024)}"}`);
    expect(() => createEmulatorApp({ scenario: big, ffmpegPath: false })).toThrow(/at most/);
    const secret = join(dir, 'secret.json');
    writeFileSync(secret, 'DATABASE_PASSWORD=hunter2-very-secret\n');
    let message = '';
    try {
      createEmulatorApp({ scenario: secret, ffmpegPath: false });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('is not valid JSON');
    expect(message).not.toContain('hunter2');
    expect(message).not.toContain('DATABASE');
  });
});
