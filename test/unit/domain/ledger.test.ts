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

  it('reads a committed generation’s credits once, and again only after a commit adds to them', () => {
    const l = ledger();
    const stored: LedgerEntry[] = [];
    let reads = 0;
    const source: LedgerSource = {
      ofGeneration(id) {
        reads += 1;
        return stored.filter((e) => e.generationId === id);
      },
      ofGenerations(ids) {
        reads += 1;
        return stored.filter((e) => ids.includes(e.generationId ?? ''));
      },
      list: () => [...stored],
    };
    const commit = () => {
      const entries = l.uncommitted();
      stored.push(...entries);
      l.committed(entries.length);
    };
    l.append({ type: 'charge', accountId: 'a', amount: 30, at: 1, generationId: 'g1', keyId: 1, modelSlug: 'm' });
    l.append({ type: 'charge', accountId: 'a', amount: 20, at: 1, generationId: 'g2', keyId: 1, modelSlug: 'm' });
    stored.push(...l.list());
    l.attach(source);

    const page = () => Object.fromEntries(l.creditsOf(['g1', 'g2']));
    expect(page()).toEqual({ g1: { charged: 30, refunded: 0 }, g2: { charged: 20, refunded: 0 } });
    expect(page()).toEqual({ g1: { charged: 30, refunded: 0 }, g2: { charged: 20, refunded: 0 } });
    expect(reads).toBe(1);

    // No keyId: a key's refund also reads the charge's day, which is not what this test counts.
    l.append({ type: 'refund', accountId: 'a', amount: 10, at: 2, generationId: 'g1', modelSlug: 'm' });
    expect(page().g1).toEqual({ charged: 30, refunded: 10 });
    expect(reads).toBe(1);
    commit();
    expect(page().g1).toEqual({ charged: 30, refunded: 10 });
    expect(l.generationCredits('g2')).toEqual({ charged: 20, refunded: 0 });
    expect(reads).toBe(2);
  });
});
