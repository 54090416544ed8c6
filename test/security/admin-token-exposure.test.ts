// Reachable beyond loopback means a token. (Tests bind loopback only, so the binding rule is tested as the
// function listen() calls, and the CLI's banner on loopback with a token.)
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cliOptions } from '../../src/cli/options.js';
import { tokenForBinding } from '../../src/emulation/plane-options.js';
import { startCli, stopCli } from '../helpers/cli-process.js';

const generated = () => 'generated-token';

describe('the admin token when exposed', () => {
  it.each([
    ['0.0.0.0', undefined, 'generated-token'],
    ['::', undefined, 'generated-token'],
    ['192.168.1.20', undefined, 'generated-token'],
    ['127.0.0.1', undefined, undefined],
    ['localhost', undefined, undefined],
    ['::1', undefined, undefined],
    ['0.0.0.0', 'configured', 'configured'],
    ['0.0.0.0', false, undefined],
  ] as const)('bound to %s with token option %s, uses %s', (host, configured, expected) => {
    expect(tokenForBinding(host, configured, true, generated)).toBe(expected);
  });

  it('generates nothing when the control plane is off (only health is served)', () => {
    expect(tokenForBinding('0.0.0.0', undefined, false, generated)).toBeUndefined();
  });

  it('reads the explicit opt-out from --no-admin-token and MEDIA_EMULATOR_NO_ADMIN_TOKEN', () => {
    const flag = cliOptions(['--no-admin-token'], {});
    const env = cliOptions([], { MEDIA_EMULATOR_NO_ADMIN_TOKEN: '1', EMULATOR_ADMIN_TOKEN: 'ignored' });
    expect([flag !== 'help' && flag.adminToken, env !== 'help' && env.adminToken]).toEqual([false, false]);
  });

  it('prints the console link with the token in its fragment, and the plane then requires the token', {
    timeout: 60_000,
  }, async () => {
    const cli = await startCli([], { env: { EMULATOR_ADMIN_TOKEN: 'banner-token-123' } });
    try {
      expect(cli.output()).toContain(`${cli.url}/_emulator/console#token=banner-token-123`);
      expect((await fetch(`${cli.url}/_emulator/keys`)).status).toBe(401);
      const ok = await fetch(`${cli.url}/_emulator/keys`, { headers: { Authorization: 'Bearer banner-token-123' } });
      expect(ok.status).toBe(200);
      // The page itself stays loadable without the token; its script sends it.
      expect((await fetch(`${cli.url}/_emulator/console`)).status).toBe(200);
    } finally {
      await stopCli(cli, 'SIGTERM');
    }
  });

  it('publishes the compose service on 127.0.0.1 only', () => {
    const compose = readFileSync(new URL('../../compose.yaml', import.meta.url), 'utf8');
    expect(compose).toContain('"127.0.0.1:8787:8787"');
    expect(compose).not.toMatch(/^\s+- "8787:8787"/m);
  });
});
