// Unit tests of the ledger: entries are the truth, balances and per-generation credits are derived from them.
import { describe, expect, it } from 'vitest';
import { Ledger, type LedgerEntry, type LedgerSource } from '../../../src/domain/ledger.js';

const DAY = 86_400_000;

function ledger() {
  let n = 0;
  return new Ledger(() => `led_${++n}`);
}

describe('Ledger', () => {
  it('derives the balance from funding, charges and refunds', () => {
    const l = ledger();
    l.append({ type: 'funding', accountId: 'a', amount: 100, at: 0 });
    l.append({ type: 'charge', accountId: 'a', amount: 30, at: 1, generationId: 'g1', keyId: 1, modelSlug: 'm' });
    l.append({ type: 'refund', accountId: 'a', amount: 10, at: 2, generationId: 'g1', keyId: 1, modelSlug: 'm' });
    expect(l.balance('a')).toBe(80);
    expect(l.funding('a')).toBe(100);
    expect(l.generationCredits('g1')).toEqual({ charged: 30, refunded: 10 });
    expect(l.recompute().get('a')).toBe(80);
  });

  it('gives every entry a fresh id and the next sequence number', () => {
    const l = ledger();
    const first = l.append({ type: 'funding', accountId: 'a', amount: 5, at: 0 });
    const second = l.append({ type: 'funding', accountId: 'a', amount: 5, at: 0 });
    expect([first.id, first.seq, second.id, second.seq]).toEqual(['led_1', 1, 'led_2', 2]);
    expect(l.size).toBe(2);
  });

  it('accepts a negative amount only for a funding adjustment', () => {
    const l = ledger();
    l.append({ type: 'funding', accountId: 'a', amount: 50, at: 0 });
    expect(l.append({ type: 'funding', accountId: 'a', amount: -20, at: 0 }).amount).toBe(-20);
    expect(() => l.append({ type: 'charge', accountId: 'a', amount: -1, at: 0 })).toThrow(
      expect.objectContaining({ code: 'invalid_amount' }),
    );
  });

  it('refuses zero and fractional amounts, leaving the balance as it was', () => {
    const l = ledger();
    for (const amount of [0, 1.5, Number.NaN])
      expect(() => l.append({ type: 'funding', accountId: 'a', amount, at: 0 })).toThrow(
        expect.objectContaining({ code: 'invalid_amount' }),
      );
    expect(l.balance('a')).toBe(0);
    expect(l.size).toBe(0);
  });

  it('counts a key’s net spend per UTC day, so a refund gives room back the same day only', () => {
    const l = ledger();
    const charge = (at: number, generationId: string) =>
      l.append({ type: 'charge', accountId: 'a', amount: 40, at, generationId, keyId: 7, modelSlug: 'm' });
    charge(DAY + 1000, 'g1');
    charge(DAY + 2000, 'g2');
    l.append({ type: 'refund', accountId: 'a', amount: 40, at: DAY + 3000, generationId: 'g1', keyId: 7 });
    expect(l.keyNetOnDay(7, DAY + 5000)).toBe(40);
    expect(l.keyNetOnDay(7, 2 * DAY)).toBe(0);
  });

  it('lists entries filtered by account and by generation, in order', () => {
    const l = ledger();
    l.append({ type: 'funding', accountId: 'a', amount: 100, at: 0 });
    l.append({ type: 'funding', accountId: 'b', amount: 100, at: 0 });
    l.append({ type: 'charge', accountId: 'a', amount: 3, at: 1, generationId: 'g1', keyId: 1 });
    expect(l.list({ accountId: 'a' }).map((e) => e.seq)).toEqual([1, 3]);
    expect(l.list({ generationId: 'g1' }).map((e) => e.type)).toEqual(['charge']);
  });

  describe('with a store of record behind it', () => {
    /** The store's side: what commit() wrote, and how many reads reached it. */
    function stored() {
      const rows: LedgerEntry[] = [];
      const reads: string[][] = [];
      const source: LedgerSource = {
        ofGeneration: (id) => {
          reads.push([id]);
          return rows.filter((e) => e.generationId === id);
        },
        ofGenerations: (ids) => {
          reads.push(ids);
          return rows.filter((e) => ids.includes(e.generationId ?? ''));
        },
        list: ({ accountId }) => rows.filter((e) => !accountId || e.accountId === accountId),
      };
      const state = { l: ledger() };
      state.l.attach(source);
      const commit = () => {
        const written = state.l.uncommitted();
        rows.push(...written);
        state.l.committed(written.length);
      };
      /** A ledger over the same store with nothing in its heap, as after a restart. */
      const reopen = () => {
        state.l = ledger();
        state.l.attach(source);
        return state.l;
      };
      return { l: state.l, reads, commit, reopen };
    }
    const charge = { type: 'charge', accountId: 'a', amount: 30, at: 1, keyId: 1, modelSlug: 'm' } as const;
    const refund = { type: 'refund', accountId: 'a', amount: 10, at: 2, keyId: 1, modelSlug: 'm' } as const;

    it('answers a committed generation’s credits from the heap, and keeps them current as refunds commit', () => {
      const { l, reads, commit } = stored();
      l.append({ ...charge, generationId: 'g1' });
      commit();
      expect(l.generationCredits('g1')).toEqual({ charged: 30, refunded: 0 });
      l.append({ ...refund, keyId: undefined, generationId: 'g1' });
      expect(l.generationCredits('g1')).toEqual({ charged: 30, refunded: 10 });
      commit();
      expect(l.generationCredits('g1')).toEqual({ charged: 30, refunded: 10 });
      expect(reads).toEqual([]);
    });

    it('reads a generation the heap does not know from the store once, with its refunds', () => {
      const { l: first, reads, commit, reopen } = stored();
      first.append({ ...charge, generationId: 'g1' });
      commit();
      const l = reopen();
      l.append({ ...refund, keyId: undefined, generationId: 'g1' });
      commit();
      expect(l.generationCredits('g1')).toEqual({ charged: 30, refunded: 10 });
      expect(l.generationCredits('g1')).toEqual({ charged: 30, refunded: 10 });
      expect(reads).toEqual([['g1']]);
    });

    it('reads a page’s uncached generations in one read', () => {
      const { l: first, reads, commit, reopen } = stored();
      for (const id of ['g1', 'g2', 'g3']) first.append({ ...charge, generationId: id });
      commit();
      const l = reopen();
      expect(l.generationCredits('g2')).toEqual({ charged: 30, refunded: 0 });
      const page = l.creditsOf(['g1', 'g2', 'g3', 'g4']);
      expect([...page.values()].map((c) => c.charged)).toEqual([30, 30, 30, 0]);
      expect(reads).toEqual([['g2'], ['g1', 'g3', 'g4']]);
    });
  });
});
