// The store of record read back as an export document: what a whole write gives back, and what a store that never
// held a clock, a timing or a kept section reads as (their defaults, never a parse error).
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../../src/index.js';
import { createMemoryUploadBlobs } from '../../../src/infra/upload-blobs.js';
import { type DocumentDeps, exportState } from '../../../src/store/state-document.js';
import { fullBatch } from '../../../src/store/state-rows.js';
import { readStoredState, storedMeta } from '../../../src/store/stored-state.js';
import { createEmulatorWith, runtimeOf } from '../../../src/testing.js';
import type { KeptState } from '../../../src/wiring/kept-state.js';
import { SQL_DRIVERS } from '../../helpers/sql-drivers.js';

const driver = SQL_DRIVERS[0];
const emulators: Emulator[] = [];
afterEach(async () => {
  for (const emulator of emulators.splice(0)) await emulator.close();
  driver.cleanUp();
});

/** A plugin's kept value (`settings`, empty `{ rules: [] }`) and log (`journal`). */
function kept(held = { rules: ['kept'] }, entries: { id: number }[] = []): KeptState {
  return {
    sections: [
      { kind: 'value', name: 'settings', empty: { rules: [] }, current: () => held, prepare: () => () => undefined },
      {
        kind: 'log',
        name: 'journal',
        largeMembers: { keep: 10, members: [] },
        current: () => ({ seq: entries.at(-1)?.id ?? 0, entries }),
        lastId: () => entries.at(-1)?.id ?? 0,
        firstId: () => entries[0]?.id ?? 0,
        after: (id) => entries.filter((e) => e.id > id),
        prepare: () => () => undefined,
      },
    ],
  };
}

function worldDeps(sections: KeptState): DocumentDeps {
  const emulator = createEmulatorWith({ seed: 1, timing: 'manual', ffmpegPath: false });
  emulators.push(emulator);
  return {
    runtime: runtimeOf(emulator),
    uploadBlobs: createMemoryUploadBlobs({ maxBytes: 1_000_000 }),
    kept: sections,
  };
}

describe('readStoredState', () => {
  it('gives back the state a whole write stored: records, clock, timing and kept sections', async () => {
    const sections = kept({ rules: ['kept'] }, [{ id: 1 }, { id: 2 }]);
    const deps = worldDeps(sections);
    const ctx = deps.runtime.context();
    ctx.clock.set(Date.parse('2026-05-06T07:08:09.000Z'));
    ctx.ledger.append({ type: 'funding', accountId: 'acct_local', amount: 12, at: ctx.clock.now() });
    const exported = exportState(deps);
    const store = await driver.store();
    store.commit(fullBatch(exported, sections, ctx));
    const read = readStoredState(store, sections);
    expect(read.format).toBe('media-gen-emulator-state');
    expect(read.version).toBe(1);
    expect(read.exported_at).toBe('2026-05-06T07:08:09.000Z');
    // The balances are the ledger's sums, which an import computes again: the store keeps the ledger's entries.
    const { balances: _sums, ...records } = JSON.parse(JSON.stringify(exported.domain));
    expect(read.domain).toEqual(records);
    expect(read.control).toEqual({
      settings: { rules: ['kept'] },
      journal: { seq: 2, entries: [{ id: 1 }, { id: 2 }] },
    });
  });

  it('reads what a store never held as the defaults: a running clock now, realistic timing, empty sections', async () => {
    const store = await driver.store();
    const before = Date.now();
    const read = readStoredState(store, kept());
    const after = Date.now();
    expect(read.domain.clock.frozen).toBe(false);
    expect(read.domain.clock.offset_ms).toBe(0);
    expect(read.domain.clock.now).toBeGreaterThanOrEqual(before);
    expect(read.domain.clock.now).toBeLessThanOrEqual(after);
    expect(read.domain.timing).toEqual({ profile: 'realistic', byModel: {} });
    expect(read.domain.ledger).toEqual([]);
    expect(read.control).toEqual({ settings: { rules: [] }, journal: { seq: 0, entries: [] } });
  });

  it('reads a kept value the store never held (a section newer than the file) as the section’s empty one', async () => {
    const store = await driver.store();
    store.commit({ meta: { control: JSON.stringify({ other: 1 }) } });
    expect(readStoredState(store, kept()).control.settings).toEqual({ rules: [] });
  });
});

describe('storedMeta', () => {
  it('parses a meta value the store holds, and gives the fallback for one it never held', async () => {
    const store = await driver.store();
    store.commit({ meta: { signing: JSON.stringify({ a: 1 }) } });
    expect(storedMeta(store, 'signing', null)).toEqual({ a: 1 });
    expect(storedMeta(store, 'never_written', 'fallback')).toBe('fallback');
  });
});
