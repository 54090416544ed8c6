// Unit tests of the ledger: entries are the truth, balances and per-generation credits are derived from them.
import { describe, expect, it } from 'vitest';
import { Ledger, type LedgerEntry, type LedgerSource } from '../../../src/domain/ledger.js';

const DAY = 86_400_000;

function ledger() {
  let n = 0;
  return new Ledger(() => `led_${++n}`);
}

/** A store of record in memory: it answers what `stored` holds, as the SQL behind record-sources.ts does. */
function memorySource(stored: LedgerEntry[]): LedgerSource {
  return {
    ofGeneration: (id) => stored.filter((e) => e.generationId === id),
    ofGenerations: (ids) => stored.filter((e) => ids.includes(e.generationId ?? '')),
    list: ({ accountId }) => stored.filter((e) => accountId === undefined || e.accountId === accountId),
  };
}

/** What the change tracker does on a commit: take the uncommitted entries into the store, then tell the ledger. */
function commit(l: Ledger, stored: LedgerEntry[]) {
  const entries = l.uncommitted();
  stored.push(...entries);
  l.committed(entries.length);
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
      expect.objectContaining({
        code: 'invalid_amount',
        message: 'Ledger amounts are whole credits, positive except for a funding adjustment downwards.',
      }),
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

describe('a key’s daily ceiling across UTC midnight', () => {
  const MIDNIGHT = 20 * DAY;
  const charge = (l: Ledger, at: number, generationId: string, amount: number) =>
    l.append({ type: 'charge', accountId: 'a', amount, at, generationId, keyId: 7, modelSlug: 'm' });
  const refund = (l: Ledger, at: number, generationId: string, amount: number) =>
    l.append({ type: 'refund', accountId: 'a', amount, at, generationId, keyId: 7, modelSlug: 'm' });

  it('gives a refund made after midnight back to the day of its charge, and leaves the new day’s room as it was', () => {
    const l = ledger();
    charge(l, MIDNIGHT - 1000, 'g1', 40);
    charge(l, MIDNIGHT + 1000, 'g2', 25);
    refund(l, MIDNIGHT + 2000, 'g1', 40);
    expect(l.keyNetOnDay(7, MIDNIGHT - 1)).toBe(0);
    expect(l.keyNetOnDay(7, MIDNIGHT)).toBe(25);
    // The account's own day counts what happened on it (the usage report's "today"), refunds included.
    expect(l.accountOnDay('a', MIDNIGHT - 1)).toEqual({ charged: 40, refunded: 0 });
    expect(l.accountOnDay('a', MIDNIGHT + 3000)).toEqual({ charged: 25, refunded: 40 });
    expect(l.accountOnDay('a', MIDNIGHT + DAY)).toEqual({ charged: 0, refunded: 0 });
  });

  it('finds the day of a charge already in the store of record', () => {
    const l = ledger();
    const stored: LedgerEntry[] = [];
    l.attach(memorySource(stored));
    charge(l, MIDNIGHT - 1000, 'g1', 40);
    commit(l, stored);
    refund(l, MIDNIGHT + 2000, 'g1', 15);
    expect(l.keyNetOnDay(7, MIDNIGHT - 1000)).toBe(25);
    expect(l.keyNetOnDay(7, MIDNIGHT + 2000)).toBe(0);
  });

  it('counts a refund whose charge the ledger never saw (a history without it) against the day of the refund', () => {
    const l = ledger();
    refund(l, MIDNIGHT + 2000, 'g9', 15);
    expect(l.keyNetOnDay(7, MIDNIGHT + 2000)).toBe(-15);
    expect(l.keyNetOnDay(7, MIDNIGHT - 1000)).toBe(0);
  });

  it('charges a key’s spend to the UTC day it was made on, never the next', () => {
    const l = ledger();
    charge(l, MIDNIGHT - 1, 'g1', 40);
    charge(l, MIDNIGHT, 'g2', 25);
    expect([l.keyNetOnDay(7, MIDNIGHT - DAY), l.keyNetOnDay(7, MIDNIGHT), l.keyNetOnDay(8, MIDNIGHT)]).toEqual([
      40, 25, 0,
    ]);
  });
});

describe('per-model totals (the usage report)', () => {
  it('counts the generations, charges and refunds that name a model, and nothing of those that name none', () => {
    const l = ledger();
    l.append({ type: 'funding', accountId: 'a', amount: 100, at: 0 });
    l.append({ type: 'charge', accountId: 'a', amount: 30, at: 1, generationId: 'g1', keyId: 1, modelSlug: 'm' });
    l.append({ type: 'refund', accountId: 'a', amount: 10, at: 2, generationId: 'g1', keyId: 1, modelSlug: 'm' });
    l.append({ type: 'charge', accountId: 'a', amount: 5, at: 3, generationId: 'g2', keyId: 1 });
    l.append({ type: 'refund', accountId: 'a', amount: 5, at: 4, generationId: 'g2', keyId: 1 });
    expect(Object.fromEntries(l.modelTotals('a'))).toEqual({ m: { generations: 1, charged: 30, refunded: 10 } });
    expect(l.modelTotals('b').size).toBe(0);
    expect(l.balance('a')).toBe(80);
  });

  it('hands out a copy: changing what it returned changes nothing in the ledger', () => {
    const l = ledger();
    l.append({ type: 'charge', accountId: 'a', amount: 30, at: 1, generationId: 'g1', keyId: 1, modelSlug: 'm' });
    l.modelTotals('a').clear();
    l.accountOnDay('a', 1).charged = 0;
    expect(l.modelTotals('a').get('m')?.charged).toBe(30);
    expect(l.accountOnDay('a', 1).charged).toBe(30);
  });
});

describe('what is committed and what is not', () => {
  it('without a store of record keeps every entry and has nothing to commit', () => {
    const l = ledger();
    l.append({ type: 'funding', accountId: 'a', amount: 100, at: 0 });
    l.append({ type: 'funding', accountId: 'b', amount: 50, at: 0 });
    expect(l.uncommittedCount).toBe(0);
    expect(l.uncommitted()).toEqual([]);
    l.committed(1);
    expect(l.list().map((e) => [e.seq, e.accountId])).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    expect(l.size).toBe(2);
  });

  it('with a store of record counts what is not committed yet, forgets it once committed, and lists both', () => {
    const l = ledger();
    const stored: LedgerEntry[] = [];
    l.append({ type: 'funding', accountId: 'a', amount: 100, at: 0 });
    stored.push(...l.list());
    l.attach(memorySource(stored));
    expect(l.uncommittedCount).toBe(0);
    l.append({ type: 'charge', accountId: 'a', amount: 30, at: 1, generationId: 'g1', keyId: 1 });
    l.append({ type: 'funding', accountId: 'b', amount: 50, at: 2 });
    expect(l.uncommittedCount).toBe(2);
    expect(l.uncommitted().map((e) => e.seq)).toEqual([2, 3]);

    stored.push(...l.uncommitted().slice(0, 1));
    l.committed(1);
    l.committed(0);
    expect(l.uncommittedCount).toBe(1);
    expect(l.uncommitted().map((e) => e.seq)).toEqual([3]);
    expect(l.list().map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(l.list({ accountId: 'a' }).map((e) => e.seq)).toEqual([1, 2]);
    expect(l.list({ generationId: 'g1' }).map((e) => e.seq)).toEqual([2]);
    expect(l.size).toBe(3);
    expect(l.recompute()).toEqual(
      new Map([
        ['a', 70],
        ['b', 50],
      ]),
    );
  });
});

describe('a restart from the store of record', () => {
  const MIDNIGHT = 30 * DAY;

  /** A day's traffic on two accounts and two keys, committed; then a fresh ledger resumed from what was stored. */
  function restarted() {
    const before = ledger();
    const stored: LedgerEntry[] = [];
    before.attach(memorySource(stored));
    before.append({ type: 'funding', accountId: 'a', amount: 500, at: 0 });
    before.append({ type: 'funding', accountId: 'b', amount: 300, at: 0 });
    before.append({ type: 'funding', accountId: 'b', amount: -20, at: 0 });
    const day = [
      { type: 'charge', accountId: 'a', amount: 88, at: MIDNIGHT - 500, generationId: 'g1', keyId: 1, modelSlug: 'm1' },
      { type: 'charge', accountId: 'a', amount: 40, at: MIDNIGHT + 100, generationId: 'g2', keyId: 1, modelSlug: 'm2' },
      { type: 'charge', accountId: 'b', amount: 30, at: MIDNIGHT + 200, generationId: 'g3', keyId: 2, modelSlug: 'm1' },
      { type: 'refund', accountId: 'a', amount: 40, at: MIDNIGHT + 300, generationId: 'g2', keyId: 1, modelSlug: 'm2' },
    ] as const;
    for (const entry of day) before.append(entry);
    commit(before, stored);
    // The sums are stored as JSON beside the rows (store/change-tracker.ts).
    const totals = JSON.parse(JSON.stringify(before.totals()));
    const after = ledger();
    after.resume(memorySource(stored), totals);
    return { before, after, stored };
  }

  const view = (l: Ledger) => ({
    size: l.size,
    balances: [l.balance('a'), l.balance('b')],
    funding: [l.funding('a'), l.funding('b')],
    keyDays: [1, 2].flatMap((key) => [MIDNIGHT - 1, MIDNIGHT].map((at) => l.keyNetOnDay(key, at))),
    accountDays: ['a', 'b'].flatMap((account) => [MIDNIGHT - 1, MIDNIGHT].map((at) => l.accountOnDay(account, at))),
    models: ['a', 'b'].map((account) => Object.fromEntries(l.modelTotals(account))),
    credits: Object.fromEntries(l.creditsOf(['g1', 'g2', 'g3'])),
    entries: l.list(),
  });

  it('keeps the balances, the funding, the day’s totals per key and per account, and the per-model totals', () => {
    const { before, after } = restarted();
    expect(view(after)).toEqual(view(before));
    expect(view(after)).toMatchObject({
      size: 7,
      balances: [500 - 88, 300 - 20 - 30],
      funding: [500, 280],
      keyDays: [88, 0, 0, 30],
      models: [
        { m1: { generations: 1, charged: 88, refunded: 0 }, m2: { generations: 1, charged: 40, refunded: 40 } },
        { m1: { generations: 1, charged: 30, refunded: 0 } },
      ],
    });
    expect(after.uncommittedCount).toBe(0);
  });

  it('goes on where it stopped: the next entry takes the next number, a late refund finds its charge’s day', () => {
    const { after, stored } = restarted();
    const next = after.append({
      type: 'refund',
      accountId: 'a',
      amount: 88,
      at: MIDNIGHT + 1000,
      generationId: 'g1',
      keyId: 1,
      modelSlug: 'm1',
    });
    expect(next.seq).toBe(8);
    expect(after.keyNetOnDay(1, MIDNIGHT - 1)).toBe(0);
    expect(after.keyNetOnDay(1, MIDNIGHT)).toBe(0);
    expect(after.balance('a')).toBe(500);
    expect(after.modelTotals('a').get('m1')).toEqual({ generations: 1, charged: 88, refunded: 88 });
    expect(after.uncommittedCount).toBe(1);
    commit(after, stored);
    expect(after.list({ generationId: 'g1' }).map((e) => e.type)).toEqual(['charge', 'refund']);
    expect(after.recompute()).toEqual(
      new Map([
        ['a', 500],
        ['b', 250],
      ]),
    );
  });
});
