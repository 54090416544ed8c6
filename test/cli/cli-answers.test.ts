// The real CLI process answering before it starts: --version, a mistyped flag, a bad or missing config file (exit 2, one line).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../scripts/transpile-dist.js';

interface Answer {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs src/cli/main.ts through tsx, as `npm start` does, and waits for it to exit by itself. */
function cli(args: string[]): Promise<Answer> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(REPO_ROOT, 'src/cli/main.ts'), ...args],
      { cwd: REPO_ROOT, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    );
  });
}

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('the CLI before it starts', () => {
  it('prints the version with --version and exits 0', async () => {
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('refuses a mistyped flag with exit 2 and one line: the nearest flag and --help', async () => {
    expect(await cli(['--timming', 'fast'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'media-gen-emulator: unknown option --timming; did you mean --timing? See --help for every option.\n',
    });
  });

  it('refuses a config file with an unknown key, and a missing one, with exit 2 and one line each', async () => {
    const config = join(mkdtempSync(join(tmpdir(), 'cli-answers-')), 'emulator.json');
    writeFileSync(config, '{"balance": 5}');
    const [unknownKey, missing] = await Promise.all([cli(['--config', config]), cli(['--config', './nope.json'])]);
    expect(unknownKey).toEqual({
      code: 2,
      stdout: '',
      stderr: `media-gen-emulator: config file ${config}: unknown key "balance"; did you mean "initialBalance"?\n`,
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^media-gen-emulator: config file \.\/nope\.json does not exist; [^\n]*\n$/);
    expect(missing.stderr).not.toContain('ENOENT');
  });

  it('refuses a value that would break later with exit 2 and one line: the flag or key, what was given, what it takes', async () => {
    const config = join(mkdtempSync(join(tmpdir(), 'cli-answers-')), 'emulator.json');
    writeFileSync(config, '{"errorStatuses": {"insufficient_credits": 99}}');
    const [status, model, empty, key, timeout] = await Promise.all([
      cli(['--config', config]),
      cli(['--timing-model', 'nope=fast', '--port', '0']),
      cli(['--balance', '']),
      cli(['--api-key', 'foo']),
      cli(['--render-timeout', '0']),
    ]);
    expect(status).toEqual({
      code: 2,
      stdout: '',
      stderr: `media-gen-emulator: config file ${config}: errorStatuses.insufficient_credits must be an HTTP error status, a whole number from 400 to 599, got 99\n`,
    });
    expect(model.code).toBe(2);
    expect(model.stdout).toBe('');
    expect(model.stderr).toMatch(
      /^media-gen-emulator: timingByModel \(--timing-model\): no model 'nope' in the catalogue; its models are [^\n]+\.\n$/,
    );
    expect(empty).toEqual({
      code: 2,
      stdout: '',
      stderr: 'media-gen-emulator: --balance must not be empty; give a value or leave the flag out\n',
    });
    expect(key).toEqual({
      code: 2,
      stdout: '',
      stderr: `media-gen-emulator: --api-key must look like 'sk-media-' followed by 4-200 letters, digits, '_' or '-', got "foo"\n`,
    });
    // 0 would kill every render at once.
    expect(timeout).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'media-gen-emulator: --render-timeout must be a duration such as "30s", "250ms" or "1h30m", or a number of milliseconds, at least 1ms, got "0"\n',
    });
  });
});
