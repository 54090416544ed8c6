// The README's curl walkthrough ("Try it in two minutes"), run as written in bash against the real CLI with fast timing.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readmeExamples } from '../../scripts/readme-examples.js';
import { requireMediaTools } from '../helpers/media-tools.js';
import { type CliProcess, startCli, stopCli } from '../helpers/cli-process.js';

let cli: CliProcess;
const work = mkdtempSync(join(tmpdir(), 'readme-try-it-'));

/** The walkthrough calls ffmpeg and ffprobe by name: the tests' own (system or npm-shipped) go first on its PATH. */
let toolsDir: string;

beforeAll(async () => {
  const tools = requireMediaTools();
  toolsDir = join(work, '.tools');
  mkdirSync(toolsDir);
  symlinkSync(tools.ffmpeg, join(toolsDir, 'ffmpeg'));
  symlinkSync(tools.ffprobe, join(toolsDir, 'ffprobe'));
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('curl was not found: the README walkthrough uses it (Debian/Ubuntu: apt-get install -y curl).');
  }
  cli = await startCli(['--timing', 'fast']);
});
afterAll(async () => {
  if (cli) await stopCli(cli, 'SIGTERM');
  rmSync(work, { recursive: true, force: true });
});

it('runs from top to bottom: models, estimate, upload, submit with refs, poll, a 4 s MP4, usage', async () => {
  const block = readmeExamples().find((e) => e.name === 'try-it.sh');
  if (!block) throw new Error('README.md has no block marked <!-- example: try-it.sh -->');
  expect(block.code).toContain('http://127.0.0.1:8787');
  // The one change: the port the test's emulator got instead of the default 8787. `set -e` so a failing step stops it.
  const script = `set -euo pipefail\n${block.code.replaceAll('http://127.0.0.1:8787', cli.url)}`;
  const out = await new Promise<string>((resolve, reject) =>
    execFile(
      'bash',
      ['-c', script],
      { cwd: work, timeout: 60_000, env: { ...process.env, PATH: `${toolsDir}${delimiter}${process.env.PATH ?? ''}` } },
      (error, stdout, stderr) =>
        error ? reject(new Error(`the walkthrough failed: ${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout),
    ),
  );
  const lines = out.trim().split('\n');
  expect(lines[0]).toBe('2');
  expect(JSON.parse(lines[1])).toMatchObject({ model_slug: 'motion-lite-v1', credits: expect.any(Number) });
  expect(lines[2]).toMatch(/^generation gen_\w+$/);
  expect(Number(lines[3])).toBeCloseTo(4, 1);
  expect(JSON.parse(lines[4])).toMatchObject({ account_id: expect.any(String) });
  expect(existsSync(join(work, 'fox.mp4'))).toBe(true);
});
