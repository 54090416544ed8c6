// The equivalent mutants of src/domain/ and src/store/: changes no test can notice because the program does the same,
// each with the reason. Stryker's own markers (`// Stryker disable` comments) work per line and mutator, which would
// also hide the mutants beside them that a test should kill; an entry here names one mutant: its file, the code it
// replaces and what it puts there (an entry matching the same change twice, say on two like lines, says so). test/mutation/directory-thresholds.mjs leaves these out of the score (as Stryker
// does its Ignored mutants) and names any entry that no longer matches a surviving mutant, so the list cannot go stale
// unnoticed.
/** @type {{ file: string; mutator: string; original: string; replacement: string; reason: string }[]} */
export const EQUIVALENT_MUTANTS = [
  // src/domain/ledger.ts
  {
    file: 'src/domain/ledger.ts',
    mutator: 'EqualityOperator',
    original: 'entry.amount < 0',
    replacement: 'entry.amount <= 0',
    reason: 'an amount of 0 is refused by the test before it, so `<= 0` and `< 0` see the same amounts',
  },
  {
    file: 'src/domain/ledger.ts',
    mutator: 'ConditionalExpression',
    original: "e.type === 'refund' && e.generationId",
    replacement: 'true',
    reason:
      'a charge looks up its own charge time then, which is not known yet (it is indexed after this line, and a ' +
      'generation is charged once), so the lookup falls back to the entry’s own time, as without it',
  },
  {
    file: 'src/domain/ledger.ts',
    mutator: 'ConditionalExpression',
    original: "e.type === 'refund'",
    replacement: 'true',
    reason: 'as above: a charge’s lookup of its own charge time finds none and falls back to the entry’s time',
  },
  {
    file: 'src/domain/ledger.ts',
    mutator: 'LogicalOperator',
    original: "e.type === 'refund' && e.generationId",
    replacement: "e.type === 'refund' || e.generationId",
    reason:
      'adds the lookup for a charge (finds none, as above) and for a refund without a generation (every refund ' +
      'the service books names its generation: generation-refunds.ts bookRefund); both fall back to the entry’s time',
  },
  {
    file: 'src/domain/ledger.ts',
    mutator: 'ConditionalExpression',
    original: 'count === 0',
    replacement: 'false',
    reason: 'committing no entries then adds 0 to the count and splices nothing: the same state as returning early',
  },
  {
    file: 'src/domain/ledger.ts',
    mutator: 'ConditionalExpression',
    original: 'filter.generationId !== undefined',
    replacement: 'false',
    reason:
      'the store is then asked for the account’s (or every) entry instead of the generation’s; list() filters by generation again below, so only the cost differs',
  },
  {
    file: 'src/domain/ledger.ts',
    mutator: 'ObjectLiteral',
    original: '{ accountId: filter.accountId }',
    replacement: '{}',
    reason:
      'the store is then asked for every account’s entries; list() filters by account again below, so only the cost differs',
  },
  // src/domain/pricing.ts
  {
    file: 'src/domain/pricing.ts',
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    reason:
      'unreachable (both the units and the count line): the catalogue loader refuses a units_from or count_from ' +
      "that names no option group, and resolveParams gives every group a value, so `?? ''` is there for the type only",
  },
  {
    file: 'src/domain/pricing.ts',
    mutator: 'EqualityOperator',
    original: 'compare(factor, largest) > 0',
    replacement: 'compare(factor, largest) >= 0',
    reason: 'on a tie `>=` keeps the later of two equal factors: the same maximum',
  },
  {
    file: 'src/domain/pricing.ts',
    mutator: 'ConditionalExpression',
    original: 'largest !== undefined',
    replacement: 'true',
    reason:
      'the catalogue schema gives every option group at least one value, so `largest` is always set (the test is for the type)',
  },
  {
    file: 'src/domain/pricing.ts',
    mutator: 'ConditionalExpression',
    original: 'value === undefined',
    replacement: 'false',
    reason:
      'every caller passes a value (resolveParams fills each group, maxPrice walks the listed values); with none, ' +
      '`Object.hasOwn(byValue, undefined)` is false for any catalogue (no value is spelt "undefined": values are validated), so the answer is undefined either way',
  },
  // src/domain/rational.ts
  {
    file: 'src/domain/rational.ts',
    mutator: 'EqualityOperator',
    original: 'den < 0n',
    replacement: 'den <= 0n',
    reason: 'a zero denominator is refused by the line before, so `<= 0n` and `< 0n` see the same denominators',
  },
  {
    file: 'src/domain/rational.ts',
    mutator: 'EqualityOperator',
    original: 'num < 0n',
    replacement: 'num <= 0n',
    reason: 'for 0n both branches pass 0n (-0n is 0n in BigInt)',
  },
  {
    file: 'src/domain/rational.ts',
    mutator: 'EqualityOperator',
    original: 'r.num > 0n',
    replacement: 'r.num >= 0n',
    reason: 'for num 0n the test before it (`num % den !== 0n`) is already false',
  },
  {
    file: 'src/domain/rational.ts',
    mutator: 'ConditionalExpression',
    original: 'a === 0n',
    replacement: 'false',
    reason: 'gcd(a, b) is 0n only when both are, and every caller passes a non-zero denominator as b',
  },
  // src/domain/recent-cache.ts: `newest` only lets get() skip moving the most recent key to the end, where it is
  // already; a wrong `newest` costs a move, never a different order.
  {
    file: 'src/domain/recent-cache.ts',
    mutator: 'ConditionalExpression',
    original: 'key !== this.newest',
    replacement: 'true',
    reason: 'moving the most recent key to the end leaves the order as it was',
  },
  {
    file: 'src/domain/recent-cache.ts',
    mutator: 'ConditionalExpression',
    original: 'key === this.newest',
    replacement: 'true',
    reason: 'forgetting the most recent key on any delete costs get() one needless move',
  },
  {
    file: 'src/domain/recent-cache.ts',
    mutator: 'ConditionalExpression',
    original: 'key === this.newest',
    replacement: 'false',
    reason: 'a deleted key kept as `newest` is never read: get() of it returns before, and set() replaces `newest`',
  },
  {
    file: 'src/domain/recent-cache.ts',
    mutator: 'EqualityOperator',
    original: 'key === this.newest',
    replacement: 'key !== this.newest',
    reason: 'the two cases above together: a needless move, or a deleted key kept and never read',
  },
];
