// The per-generation credit index: what counts as a generation's charge and refund, its charge time, with and without a store of record.
import { describe, expect, it } from 'vitest';
import { GenerationCreditIndex } from '../../../src/domain/generation-credits.js';
import type { LedgerEntry, LedgerSource } from '../../../src/domain/ledger-entry.js';

let seq = 0;
function entry(type: LedgerEntry['type'], amount: number, at: number, generationId?: string): LedgerEntry {
  seq += 1;
  return { id: `led_${seq}`, seq, type, accountId: 'a', amount, at, generationId };
}

/** A store of record in memory, answering as the SQL behind record-sources.ts does (entries in order). */
function memorySource(stored: LedgerEntry[]): LedgerSource {
  return {
    ofGeneration: (id) => stored.filter((e) => e.generationId === id),
    ofGenerations: (ids) => stored.filter((e) => e.generationId !== undefined && ids.includes(e.generationId)),
    list: ({ accountId }) => stored.filter((e) => accountId === undefined || e.accountId === accountId),
  };
}

describe('GenerationCreditIndex', () => {
  it('does not count a committed funding entry that names a generation as a refund of it', () => {
    const index = new GenerationCreditIndex();
    // An imported state may tag a balance adjustment with the generation it compensates.
    index.useSource(
      memorySource([entry('charge', 30, 1, 'g1'), entry('funding', 50, 2, 'g1'), entry('refund', 10, 3, 'g1')]),
    );
    expect(index.one('g1')).toEqual({ charged: 30, refunded: 10 });
    expect(Object.fromEntries(index.of(['g1']))).toEqual({ g1: { charged: 30, refunded: 10 } });
  });

  it('does not count an uncommitted funding entry that names a generation', () => {
    const index = new GenerationCreditIndex();
    index.add(entry('charge', 30, 1, 'g1'));
    index.add(entry('funding', 50, 2, 'g1'));
    expect(index.one('g1')).toEqual({ charged: 30, refunded: 0 });
    expect(index.chargeTime('g1')).toBe(1);
  });

  it('keeps the time of the charge as the charge time after refunds of it', () => {
    const index = new GenerationCreditIndex();
    index.add(entry('charge', 30, 1000, 'g1'));
    index.add(entry('refund', 10, 5000, 'g1'));
    index.add(entry('refund', 5, 9000, 'g1'));
    expect(index.chargeTime('g1')).toBe(1000);
  });

  it('answers the time of a charge not committed yet while a store of record is attached', () => {
    const index = new GenerationCreditIndex();
    index.useSource(memorySource([]));
    index.add(entry('charge', 30, 1000, 'g1'));
    expect(index.chargeTime('g1')).toBe(1000);
  });

  it('reads the charge time of a committed generation from the store, skipping its other entries', () => {
    const index = new GenerationCreditIndex();
    index.useSource(memorySource([entry('funding', 50, 100, 'g1'), entry('charge', 30, 1000, 'g1')]));
    expect(index.chargeTime('g1')).toBe(1000);
  });

  it('answers no charge time for a generation never charged, with or without a store of record', () => {
    const index = new GenerationCreditIndex();
    expect(index.chargeTime('g9')).toBeUndefined();
    index.useSource(memorySource([entry('charge', 30, 1, 'g1')]));
    expect(index.chargeTime('g9')).toBeUndefined();
  });

  it('answers a page of generations from the heap alone while no store of record is attached', () => {
    const index = new GenerationCreditIndex();
    index.add(entry('charge', 30, 1, 'g1'));
    index.add(entry('refund', 10, 2, 'g1'));
    index.add(entry('charge', 20, 3, 'g2'));
    expect(Object.fromEntries(index.of(['g1', 'g2', 'g3']))).toEqual({
      g1: { charged: 30, refunded: 10 },
      g2: { charged: 20, refunded: 0 },
      g3: { charged: 0, refunded: 0 },
    });
  });

  it('counts a generation whose id is the empty string like any other, in the heap as in the store', () => {
    // The store of record selects on the id as a string, and a state's generation ids may be any string.
    const heap = new GenerationCreditIndex();
    heap.add(entry('charge', 30, 1, ''));
    expect(heap.one('')).toEqual({ charged: 30, refunded: 0 });
    expect(heap.chargeTime('')).toBe(1);

    const stored: LedgerEntry[] = [entry('charge', 30, 1, '')];
    const index = new GenerationCreditIndex();
    index.useSource(memorySource(stored));
    expect(index.one('')).toEqual({ charged: 30, refunded: 0 });
    const refund = entry('refund', 10, 2, '');
    stored.push(refund);
    index.committed([refund], []);
    expect(index.one('')).toEqual({ charged: 30, refunded: 10 });
  });
});
