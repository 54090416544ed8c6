// The verify subcommand: the real CLI in a child process against a loopback service, its files and exit codes.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runVerifyCommand } from '../../src/verify/command.js';
import { SCOPED_KEY, SERVICE_KEY, startDifferingService } from './differing-service.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'verify-command-'));

function cli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'verify', ...args], {
      cwd: root,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function capture() {
  const io = { text: '', out: (t: string) => (io.text += t), err: (t: string) => (io.text += t) };
  return io;
}

describe('media-gen-emulator verify', () => {
  it('exits 1 on differences, writes the report as Markdown and JSON and a calibration, and never prints the key', async () => {
    const service = await startDifferingService();
    const report = join(dir, 'staging.md');
    const calibration = join(dir, 'calibration.json');
    const run = await cli(
      [
        '--base-url',
        service.url,
        '--scoped-api-key',
        SCOPED_KEY,
        '--report',
        report,
        '--write-calibration',
        calibration,
        '--rps',
        '500',
      ],
      { MEDIA_VERIFY_API_KEY: SERVICE_KEY },
    );
    expect(run.stderr).toContain('report written to');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('differs: insufficient-balance');
    const json = JSON.parse(readFileSync(join(dir, 'staging.json'), 'utf8'));
    expect(json.clean).toBe(false);
    expect(readFileSync(report, 'utf8')).toContain('# Verify report');
    const files = [report, join(dir, 'staging.json'), calibration].map((f) => readFileSync(f, 'utf8'));
    for (const text of [run.stdout, run.stderr, ...files]) {
      expect(text).not.toContain(SERVICE_KEY);
      expect(text).not.toContain(SCOPED_KEY);
    }

    // The emulator calibrated with what was written matches the service: exit 0.
    const io = capture();
    const args = ['--base-url', service.url, '--api-key', SERVICE_KEY, '--scoped-api-key', SCOPED_KEY, '--rps', '500'];
    expect(await runVerifyCommand([...args, '--calibration', calibration], {}, io)).toBe(0);
    expect(io.text).toContain('clean: ');
  });

  it('exits 2 with a message when the run cannot be made', async () => {
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [['--base-url', 'http://127.0.0.1:9'], {}, /--api-key/],
      [['--base-url', 'ftp://example.com', '--api-key', 'sk-media-x'], {}, /http\(s\) URL/],
      [
        ['--base-url', 'http://127.0.0.1:1', '--api-key', 'sk-media-x', '--rps', '0'],
        {},
        /--rps must be a number above 0/,
      ],
      [['--base-url', 'http://127.0.0.1:1', '--api-key', 'sk-media-x', '--allow-spend', '-5'], {}, /--allow-spend/],
      [
        ['--base-url', 'http://127.0.0.1:1', '--api-key', 'sk-media-x', '--rps', '1000'],
        {},
        /cannot reach http:\/\/127\.0\.0\.1:1/,
      ],
      [['--bogus'], {}, /bogus/],
    ];
    for (const [args, env, message] of cases) {
      const io = capture();
      expect(await runVerifyCommand(args, env, io), args.join(' ')).toBe(2);
      expect(io.text).toMatch(message);
    }
    const io = capture();
    expect(await runVerifyCommand(['--help'], {}, io)).toBe(0);
    expect(io.text).toContain('--allow-spend N');
  });

  it('exits 2 on an unusable calibration before the service sees a request', async () => {
    const service = await startDifferingService();
    const bad = join(dir, 'bad-calibration.json');
    writeFileSync(
      bad,
      JSON.stringify({
        version: 1,
        observed_at: '2026-11-20T09:00:00Z',
        errors: { insufficient_credits: { status: 99 } },
      }),
    );
    const io = capture();
    const code = await runVerifyCommand(
      ['--base-url', service.url, '--api-key', SERVICE_KEY, '--calibration', bad],
      {},
      io,
    );
    expect(code).toBe(2);
    expect(io.text).toContain('errors.insufficient_credits.status');
    expect(await service.control.journal()).toEqual([]);
    await fetch(`${service.url}/v1/media/models`); // the journal does record a request that arrives
    expect(await service.control.journal()).toHaveLength(1);
  });

  it('makes the folders of the report and the calibration before the first probe', async () => {
    const service = await startDifferingService();
    const io = capture();
    const report = join(dir, 'new-folder', 'nested', 'report');
    const calibration = join(dir, 'other-folder', 'calibration.json');
    const args = ['--base-url', service.url, '--api-key', SERVICE_KEY, '--rps', '500'];
    const code = await runVerifyCommand([...args, '--report', report, '--write-calibration', calibration], {}, io);
    expect(code).toBe(1);
    expect(JSON.parse(readFileSync(`${report}.json`, 'utf8')).clean).toBe(false);
    expect(JSON.parse(readFileSync(calibration, 'utf8'))).toHaveProperty('version');
  });

  it('exits 2 before the first probe when a folder for its files cannot be made', async () => {
    const service = await startDifferingService();
    const io = capture();
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder');
    const code = await runVerifyCommand(
      ['--base-url', service.url, '--api-key', SERVICE_KEY, '--report', join(file, 'report'), '--rps', '500'],
      {},
      io,
    );
    expect(code).toBe(2);
    expect(io.text).toContain('cannot write a file');
    expect(await service.control.journal()).toEqual([]);
  });

  it('exits 2 before the first probe when --report or --write-calibration names a folder', async () => {
    const service = await startDifferingService();
    const args = ['--base-url', service.url, '--api-key', SERVICE_KEY, '--rps', '500'];
    mkdirSync(join(dir, 'taken.md'), { recursive: true });
    for (const [flag, path] of [
      ['--report', join(dir, 'reports/')],
      ['--report', join(dir, 'taken')],
      ['--write-calibration', dir],
    ]) {
      const io = capture();
      expect(await runVerifyCommand([...args, flag, path], {}, io)).toBe(2);
      expect(io.text).toContain(`${flag} ${path} is a folder; give a file name in it`);
    }
    expect(await service.control.journal()).toEqual([]);
  });

  it('exits 2 when the service refuses the key', async () => {
    const service = await startDifferingService();
    const io = capture();
    const code = await runVerifyCommand(['--base-url', service.url, '--api-key', 'sk-media-wrong-key-123'], {}, io);
    expect(code).toBe(2);
    expect(io.text).toContain('refused the API key');
    expect(io.text).not.toContain('sk-media-wrong-key-123');
  });
});
