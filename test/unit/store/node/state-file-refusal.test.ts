// A --state-file whose stored state cannot be loaded is refused with a line naming the file, the reason and how to
// recover, and, for a database migrated from the old JSON state, where that JSON is kept.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DomainError } from '../../../../src/domain/errors.js';
import { createMemoryUploadBlobs } from '../../../../src/infra/upload-blobs.js';
import { openSqliteStore } from '../../../../src/infra/sqlite-connection.js';
import { createStoreOfRecord } from '../../../../src/store/node/state-file.js';
import { migrationBackup } from '../../../../src/store/node/state-migration.js';
import type { DocumentDeps } from '../../../../src/store/state-document.js';
import type { StoreOfRecord } from '../../../../src/store/store-of-record.js';
import { STATE_FORMAT } from '../../../../src/store/state-document.js';

const folders: string[] = [];
const stores: StoreOfRecord[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close({ write: false });
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

// The stored settings are read (and refused) before any part of a world is touched: a world whose runtime throws on
// use shows that, and keeps the test to the store's own code.
const deps: DocumentDeps = {
  runtime: new Proxy({} as DocumentDeps['runtime'], {
    get() {
      throw new Error('the runtime is not reached when the stored settings are unreadable');
    },
  }),
  uploadBlobs: createMemoryUploadBlobs({ maxBytes: 1_000 }),
  kept: { sections: [] },
};

function statePath(): string {
  const folder = mkdtempSync(join(tmpdir(), 'state-file-'));
  folders.push(folder);
  return join(folder, 'state.db');
}

/** Overwrites the stored clock with text that is not JSON, as a hand edit with the sqlite3 tool could. */
function breakClock(path: string): void {
  const raw = openSqliteStore({ path, sync: 'off' });
  raw.commit({ meta: { clock: 'not json' } });
  raw.close();
}

const unparsable = (() => {
  try {
    JSON.parse('not json');
  } catch (error) {
    return (error as Error).message.replace(/\.$/, '');
  }
  return '';
})();

async function refusalOf(path: string): Promise<DomainError> {
  const store = createStoreOfRecord(deps, { path, sync: 'off', log: () => {} });
  stores.push(store);
  const error = await store.open().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

const advice =
  'The file is left as it was; to recover, move it away and start without it (a fresh state), or fix the value named above with the sqlite3 tool (the meta and record tables hold JSON).';

describe('createStoreOfRecord refusing a state file it cannot load', () => {
  it('names the file, the reason and how to recover', async () => {
    const path = statePath();
    breakClock(path);
    const error = await refusalOf(path);
    expect(error.code).toBe('invalid_state');
    expect(error.message).toBe(`State file ${path}: ${unparsable}. ${advice}`);
  });

  it('adds where the JSON state is kept when the database was migrated from one', async () => {
    const path = statePath();
    const domain = {
      clock: { now: 0 },
      timing: {},
      accounts: [],
      keys: [],
      ledger: [],
      generations: [],
      idempotency: [],
      uploads: [],
    };
    writeFileSync(path, JSON.stringify({ format: STATE_FORMAT, domain, control: {} }));
    // Opening the store migrates the JSON state into a database at the same path.
    await createStoreOfRecord(deps, { path, sync: 'off', log: () => {} }).close({ write: false });
    breakClock(path);
    const error = await refusalOf(path);
    expect(error.message).toBe(
      `State file ${path}: ${unparsable}. ${advice} It was migrated from the JSON state kept as ${migrationBackup(path)}.`,
    );
  });
});
