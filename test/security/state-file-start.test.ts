// Starting on a state file: one writer at a time, a damaged database refused untouched, an old JSON state migrated once.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY } from '../../src/config.js';
import { type CliProcess, startCli, stopCli } from '../helpers/cli-process.js';

const running: CliProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const p of running.splice(0)) await stopCli(p, 'SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const auth = { Authorization: `Bearer ${DEFAULT_API_KEY}`, 'Content-Type': 'application/json' };

function scratch() {
  const dir = mkdtempSync(join(tmpdir(), 'state-start-'));
  dirs.push(dir);
  return dir;
}

async function start(args: string[]) {
  const p = await startCli(args);
  running.push(p);
  return p;
}

/** The CLI's failure to start: its exit code must be 2 and its output one line. */
async function refusedStart(args: string[]): Promise<string> {
  const failure = await startCli(args).then(
    (p) => {
      running.push(p);
      return new Error('the CLI started');
    },
    (error: Error) => error,
  );
  expect(failure.message).toMatch(/exited with 2/);
  expect(failure.message).not.toMatch(/\n\s+at /);
  return failure.message;
}

describe('starting on a state file', () => {
  it('refuses a second emulator on the same file, which keeps serving the first', { timeout: 90_000 }, async () => {
    const file = join(scratch(), 'state.db');
    const first = await start(['--timing', 'manual', '--state-file', file]);
    const why = await refusedStart(['--timing', 'manual', '--state-file', file]);
    expect(why).toContain(`State file ${file} is in use by another emulator`);
    const res = await fetch(`${first.url}/v1/media/generations`, {
      method: 'POST',
      headers: { ...auth, 'Idempotency-Key': 'first-still-writes' },
      body: JSON.stringify({ model_slug: 'motion-lite-v1', prompt: 'still mine', max_credits: 1000 }),
    });
    expect(res.status).toBe(202);
  });

  it('refuses a damaged database in one line and leaves the file as it was', { timeout: 90_000 }, async () => {
    const file = join(scratch(), 'state.db');
    const first = await start(['--timing', 'manual', '--state-file', file]);
    await stopCli(first, 'SIGTERM');
    // Keep SQLite's header and break everything after it, as a disk error or a bad copy would.
    const damaged = readFileSync(file);
    damaged.fill(0x5a, 100);
    writeFileSync(file, damaged);
    const why = await refusedStart(['--timing', 'manual', '--state-file', file]);
    expect(why).toMatch(/is not a readable SQLite database/);
    expect(readFileSync(file).equals(damaged)).toBe(true);
  });

  it('migrates a JSON state file of the old format once, and says so', { timeout: 90_000 }, async () => {
    const dir = scratch();
    const file = join(dir, 'state.json');
    const source = await start(['--timing', 'manual', '--seed', '9']);
    const submitted = await fetch(`${source.url}/v1/media/generations`, {
      method: 'POST',
      headers: { ...auth, 'Idempotency-Key': 'migrated' },
      body: JSON.stringify({ model_slug: 'motion-lite-v1', prompt: 'from json', max_credits: 1000 }),
    });
    const id = ((await submitted.json()) as { generation: { id: string } }).generation.id;
    writeFileSync(file, await (await fetch(`${source.url}/_emulator/state`)).text());

    const migrated = await start(['--timing', 'manual', '--seed', '9', '--state-file', file]);
    expect(migrated.output()).toContain(`migrated the JSON state file ${file} to an SQLite database`);
    expect(readFileSync(file).subarray(0, 15).toString('latin1')).toBe('SQLite format 3');
    expect(JSON.parse(readFileSync(`${file}.pre-sqlite.json`, 'utf8')).format).toBe('media-gen-emulator-state');
    const list = (await (await fetch(`${migrated.url}/v1/media/generations`, { headers: auth })).json()) as {
      generations: { id: string }[];
    };
    expect(list.generations.map((g) => g.id)).toEqual([id]);
    await stopCli(migrated, 'SIGKILL');

    const again = await start(['--timing', 'manual', '--seed', '9', '--state-file', file]);
    expect(again.output()).not.toContain('migrated');
  });

  it('names the kept JSON state when the state it migrated is refused at start', { timeout: 90_000 }, async () => {
    const file = join(scratch(), 'state.json');
    const source = await start(['--timing', 'manual']);
    const state = (await (await fetch(`${source.url}/_emulator/state`)).json()) as {
      domain: { ledger: { accountId: string }[] };
    };
    state.domain.ledger[0].accountId = 'acct_ghost';
    writeFileSync(file, JSON.stringify(state));
    const why = await refusedStart(['--timing', 'manual', '--state-file', file]);
    expect(why).toContain(`domain.ledger[0].accountId: no account 'acct_ghost'`);
    expect(why).toContain(`It was migrated from the JSON state kept as ${file}.pre-sqlite.json.`);
    expect(JSON.parse(readFileSync(`${file}.pre-sqlite.json`, 'utf8'))).toEqual(state);
  });
});
