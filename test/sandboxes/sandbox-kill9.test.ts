// Sandboxes survive kill -9 of the CLI, and a deleted one stays deleted (a child process: left out of mutation testing,
// where no mutant is switched on in the child).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliProcess, startCli, stopCli } from '../helpers/cli-process.js';
import { call, submission } from './sandbox-http.js';

const running: CliProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const p of running.splice(0)) await stopCli(p, 'SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const stateDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sbx-state-'));
  dirs.push(dir);
  return dir;
};

describe('sandboxes with a state file, in the CLI', () => {
  it('survive kill -9 of the CLI, and a deleted one stays deleted', { timeout: 90_000 }, async () => {
    const args = ['--timing', 'manual', '--state-file', join(stateDir(), 'state.db')];
    const first = await startCli(args);
    running.push(first);
    const kept = (await call(first.url, 'POST', '/_emulator/sandboxes', { body: {} })).body;
    const gone = (await call(first.url, 'POST', '/_emulator/sandboxes', { body: {} })).body;
    const made = await call(first.url, 'POST', '/v1/media/generations', { bearer: kept.apiKey, body: submission });
    expect(made.status).toBe(202);
    expect((await call(first.url, 'DELETE', `/_emulator/sandboxes/${gone.id}`)).status).toBe(204);
    await stopCli(first, 'SIGKILL');

    const second = await startCli(args);
    running.push(second);
    const list = await call(second.url, 'GET', '/v1/media/generations', { bearer: kept.apiKey });
    expect(list.body.generations.map((g: { id: string }) => g.id)).toEqual([made.body.generation.id]);
    expect((await call(second.url, 'GET', '/_emulator/sandboxes')).body.data.map((s: { id: string }) => s.id)).toEqual([
      kept.id,
    ]);
    expect((await call(second.url, 'GET', '/v1/media/generations', { bearer: gone.apiKey })).status).toBe(401);
  });
});
