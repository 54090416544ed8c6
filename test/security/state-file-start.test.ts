// Starting on a state file: one writer at a time, a damaged database refused untouched, an old JSON state migrated once,
// and anything else (another program's file, a read-only one, a log whose database is gone) refused in one line with
// exit 2, leaving nothing behind.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY } from '../../src/config.js';
import { openSqlConnection } from '../../src/infra/sqlite-driver.js';
import { type CliProcess, freshTmp, leftUnder, startCli, stopCli } from '../helpers/cli-process.js';

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
async function refusedStart(args: string[], options: { tmp?: string } = {}): Promise<string> {
  const failure = await startCli(args, options).then(
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

/** Every file under `dir` with its bytes: what a refused start must leave exactly as it was. */
const contents = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true })
      .map(String)
      .sort()
      .map((f) => {
        try {
          return [f, readFileSync(join(dir, f)).toString('base64')];
        } catch {
          return [f, '(folder)'];
        }
      }),
  );

/** A state file made by the CLI and left by kill -9: its database and its write-ahead log, with one generation. */
async function killedState(dir: string) {
  const file = join(dir, 'state.db');
  const cli = await start(['--timing', 'manual', '--state-file', file]);
  const res = await fetch(`${cli.url}/v1/media/generations`, {
    method: 'POST',
    headers: { ...auth, 'Idempotency-Key': 'acknowledged-before-kill' },
    body: JSON.stringify({ model_slug: 'motion-lite-v1', prompt: 'kept in the log', max_credits: 1000 }),
  });
  expect(res.status).toBe(202);
  await stopCli(cli, 'SIGKILL');
  return file;
}

/**
 * Makes `dir` read-only for the emulator, as an unprivileged user meets it (file mode 0444) or, for root, whom modes do
 * not stop, as a read-only bind mount. Returns the undo.
 */
function readOnly(dir: string, file: string): () => void {
  chmodSync(file, 0o444);
  try {
    closeSync(openSync(file, 'r+'));
  } catch {
    return () => chmodSync(file, 0o644);
  }
  chmodSync(file, 0o644);
  try {
    execFileSync('mount', ['--bind', dir, dir], { stdio: 'pipe' });
    execFileSync('mount', ['-o', 'remount,ro,bind', dir], { stdio: 'pipe' });
  } catch (error) {
    throw new Error(
      `This test needs a read-only state file: file modes do not stop this user (root) and a read-only bind mount failed (${(error as Error).message}). Run it as an unprivileged user, or as root with CAP_SYS_ADMIN.`,
    );
  }
  return () => execFileSync('umount', [dir]);
}

describe('a state file the emulator cannot use', () => {
  const refusals: [string, (dir: string) => Promise<string> | string, RegExp][] = [
    [
      'a JSON file that is not a state (package.json)',
      (dir) => {
        const file = join(dir, 'package.json');
        copyFileSync(join(import.meta.dirname, '../../package.json'), file);
        return file;
      },
      /package\.json is JSON but not a state of this emulator .*left untouched/,
    ],
    [
      'a file that is neither JSON nor SQLite',
      (dir) => {
        const file = join(dir, 'notes.txt');
        writeFileSync(file, 'shopping list\n');
        return file;
      },
      /notes\.txt is neither an SQLite database nor a JSON state of this emulator/,
    ],
    [
      "another program's SQLite database",
      (dir) => {
        const file = join(dir, 'app.db');
        const db = openSqlConnection(file);
        db.exec("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users VALUES (1, 'ada')");
        db.close();
        return file;
      },
      /app\.db is an SQLite database of another program \(tables users\); it was left untouched/,
    ],
    [
      'a folder',
      (dir) => {
        const folder = join(dir, 'state.db');
        mkdirSync(folder);
        return folder;
      },
      /state\.db is a folder/,
    ],
    [
      'a database deleted while its write-ahead log remains',
      async (dir) => {
        const file = await killedState(dir);
        rmSync(file);
        return file;
      },
      /state\.db does not exist, but its write-ahead log .*state\.db-wal does: it holds acknowledged changes/,
    ],
  ];

  it.each(refusals)(
    'refuses %s in one line with exit 2, and leaves every file as it was',
    {
      timeout: 90_000,
    },
    async (_what, make, why) => {
      const dir = scratch();
      const file = await make(dir);
      const before = contents(dir);
      const tmp = freshTmp();
      expect(await refusedStart(['--timing', 'manual', '--state-file', file], { tmp })).toMatch(why);
      expect(contents(dir)).toEqual(before);
      expect(leftUnder(tmp)).toEqual([]);
    },
  );

  it('refuses a read-only database in one line with exit 2 and creates nothing beside it', {
    timeout: 90_000,
  }, async () => {
    const dir = scratch();
    const file = join(dir, 'state.db');
    await stopCli(await start(['--timing', 'manual', '--state-file', file]), 'SIGTERM');
    const before = contents(dir);
    const undo = readOnly(dir, file);
    try {
      const why = await refusedStart(['--timing', 'manual', '--state-file', file]);
      expect(why).toMatch(
        /state\.db could not be opened for writing \(SQLITE_IOERR: disk I\/O error\): the file or its folder is read-only/,
      );
    } finally {
      undo();
    }
    expect(contents(dir)).toEqual(before);
  });

  it('starts again once the database is back beside its log, with the acknowledged change', {
    timeout: 90_000,
  }, async () => {
    const dir = scratch();
    const file = await killedState(dir);
    const moved = join(dir, 'moved.db');
    copyFileSync(file, moved);
    rmSync(file);
    await refusedStart(['--timing', 'manual', '--state-file', file]);
    copyFileSync(moved, file);
    const back = await start(['--timing', 'manual', '--state-file', file]);
    const list = (await (await fetch(`${back.url}/v1/media/generations`, { headers: auth })).json()) as {
      generations: unknown[];
    };
    expect(list.generations).toHaveLength(1);
  });
});
