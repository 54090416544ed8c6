// Whether a start may resume from the store (only what the heap keeps) or must read it whole: the three meta entries
// a newer store holds, each one needed.
import { afterEach, describe, expect, it } from 'vitest';
import { canResume } from '../../../src/store/resume-state.js';
import { SQL_DRIVERS } from '../../helpers/sql-drivers.js';

const driver = SQL_DRIVERS[0];
afterEach(() => driver.cleanUp());

const RESUME_META = { ledger_totals: '{}', ids: '{}', timers: 'due_at' };

describe('canResume', () => {
  it('is true for a store holding the ledger’s sums, the id sequences and its waiting generations’ due times', async () => {
    const store = await driver.store();
    store.commit({ meta: RESUME_META });
    expect(canResume(store)).toBe(true);
  });

  it('is false for a store that has none of them', async () => {
    expect(canResume(await driver.store())).toBe(false);
  });

  it.each([
    ['the ledger’s sums', { ids: '{}', timers: 'due_at' }],
    ['the id sequences', { ledger_totals: '{}', timers: 'due_at' }],
    ['the due times', { ledger_totals: '{}', ids: '{}' }],
    ['the due times in this version’s columns', { ...RESUME_META, timers: 'older' }],
  ])('is false for a store without %s: it is read whole once', async (_name, meta) => {
    const store = await driver.store();
    store.commit({ meta });
    expect(canResume(store)).toBe(false);
  });
});
