// Where Node has no node:sqlite and the optional better-sqlite3 did not install, the CLI refuses to start in one line.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleCli } from '../../scripts/bundle-cli.js';
import { REPO_ROOT } from '../../scripts/transpile-dist.js';

/** An installed package as npm leaves it when better-sqlite3's install failed: every dependency but that one. */
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'media-gen-no-sqlite-'));
  await bundleCli(join(REPO_ROOT, 'src'), join(root, 'dist'));
  for (const name of ['package.json', 'fixtures', 'src']) symlinkSync(join(REPO_ROOT, name), join(root, name));
  mkdirSync(join(root, 'node_modules'));
  for (const name of readdirSync(join(REPO_ROOT, 'node_modules')))
    if (name !== 'better-sqlite3') symlinkSync(join(REPO_ROOT, 'node_modules', name), join(root, 'node_modules', name));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('no SQLite binding at all', () => {
  it('stops the start with one line naming Node 22.13 and better-sqlite3, exit 2', { timeout: 60_000 }, () => {
    // Node 22.13+ has node:sqlite built in: its flag takes it away, which is what Node 20 and 22.11-22.12 look like.
    const builtIn = process.getBuiltinModule?.('node:sqlite') !== undefined;
    const run = spawnSync(
      process.execPath,
      [...(builtIn ? ['--no-experimental-sqlite'] : []), join(root, 'dist', 'cli', 'main.js'), '--port', '0'],
      { cwd: root, encoding: 'utf8', timeout: 30_000 },
    );
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^media-gen-emulator: SQLite: Node \S+ has no node:sqlite \(built in from Node 22\.13\), and better-sqlite3, the optional dependency that stands in for it, is not installed\. Use Node 22\.13\+ or 24/,
    );
    expect([run.status, run.stdout]).toEqual([2, '']);
  });
});
