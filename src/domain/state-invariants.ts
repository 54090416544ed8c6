// What an imported state must satisfy before it replaces anything: the ledger, the accounts and the generations agree.
import type { DomainSnapshot } from './domain-snapshot.js';
import type { RestoreOrigin } from './runtime.js';
import { invalidState } from './state-problems.js';

function bad(field: string, message: string): never {
  throw invalidState('The state is inconsistent', [{ field: `domain.${field}`, message }]);
}

/**
 * Walks the ledger once, in order: every entry belongs to a known account (and generation), a charge never takes a
 * balance below zero (only a funding adjustment downwards may), every generation has exactly one charge and no more
 * refunded than charged, and exported balances, when present, equal the ledger's sums. Throws on the first bad field.
 * An import also leaves each wallet room for its refunds (see refundRoom); a store kept before that rule still loads.
 */
export function checkInvariants(s: DomainSnapshot, origin: RestoreOrigin): void {
  const accounts = new Set(s.accounts.map((a) => a.id));
  const generations = new Map(s.generations.map((g) => [g.id, g]));
  s.keys.forEach((k, i) => {
    if (!accounts.has(k.accountId)) bad(`keys[${i}].accountId`, `no account '${k.accountId}'`);
  });
  const balances = new Map<string, number>();
  const credits = new Map<string, { charged: number; refunded: number; charges: number }>();
  s.ledger.forEach((e, i) => {
    if (!accounts.has(e.accountId)) bad(`ledger[${i}].accountId`, `no account '${e.accountId}'`);
    if (e.amount <= 0 && e.type !== 'funding') bad(`ledger[${i}].amount`, `a ${e.type} must be a positive amount`);
    if (e.type !== 'funding') {
      const g = e.generationId === undefined ? undefined : generations.get(e.generationId);
      if (!g) bad(`ledger[${i}].generationId`, `a ${e.type} must name a generation of the state`);
      if (g.accountId !== e.accountId)
        bad(`ledger[${i}].accountId`, `generation ${g.id} belongs to '${g.accountId}', not '${e.accountId}'`);
      const c = credits.get(g.id) ?? { charged: 0, refunded: 0, charges: 0 };
      if (e.type === 'charge') {
        c.charged += e.amount;
        c.charges += 1;
        if (c.charges > 1) bad(`ledger[${i}]`, `generation ${g.id} is charged twice`);
      } else {
        c.refunded += e.amount;
        if (c.refunded > c.charged)
          bad(`ledger[${i}].amount`, `generation ${g.id} is refunded more than it was charged`);
      }
      credits.set(g.id, c);
    }
    const balance = (balances.get(e.accountId) ?? 0) + (e.type === 'charge' ? -e.amount : e.amount);
    // Past 2^53 a sum of credits is no longer exact: a credit could be lost or counted twice. A generation's own sums
    // cannot get there: it has one charge (a safe integer, domainSnapshotSchema) and refunds no more than that.
    if (!Number.isSafeInteger(balance))
      bad(`ledger[${i}].amount`, `this entry takes a sum past ${Number.MAX_SAFE_INTEGER} credits`);
    if (e.type === 'charge' && balance < 0)
      bad(`ledger[${i}].amount`, `this charge takes account '${e.accountId}' to ${balance} credits`);
    balances.set(e.accountId, balance);
  });
  s.generations.forEach((g, i) => {
    if (!accounts.has(g.accountId)) bad(`generations[${i}].accountId`, `no account '${g.accountId}'`);
    if (!credits.get(g.id)?.charges) bad(`generations[${i}]`, `generation ${g.id} has no charge in the ledger`);
  });
  for (const [account, balance] of Object.entries(s.balances ?? {})) {
    if (!accounts.has(account)) bad(`balances.${account}`, `no account '${account}'`);
    const sum = balances.get(account) ?? 0;
    if (balance !== sum) bad(`balances.${account}`, `${balance} differs from the ledger's sum, ${sum}`);
  }
  if (origin === 'import') refundRoom(s, balances, credits);
}

/**
 * A balance plus what its generations may still get back as refunds stays within 2^53 - 1, as every balance change
 * keeps it: past that, a later refund would not be exact (a credit lost or counted twice).
 */
function refundRoom(
  s: DomainSnapshot,
  balances: Map<string, number>,
  credits: Map<string, { charged: number; refunded: number }>,
) {
  const refundable = new Map<string, number>();
  for (const g of s.generations) {
    const c = credits.get(g.id);
    if (c) refundable.set(g.accountId, (refundable.get(g.accountId) ?? 0) + c.charged - c.refunded);
  }
  s.accounts.forEach((a, i) => {
    const balance = balances.get(a.id) ?? 0;
    const held = refundable.get(a.id) ?? 0;
    if (balance + held > Number.MAX_SAFE_INTEGER)
      bad(
        `accounts[${i}]`,
        `account '${a.id}' holds ${balance} credits and its generations may still get ${held} back as refunds: together past ${Number.MAX_SAFE_INTEGER}, where a refund is no longer exact`,
      );
  });
}
