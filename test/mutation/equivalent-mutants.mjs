// The equivalent mutants of src/domain/ and src/store/: changes no test can notice because the program does the same,
// each with the reason. Stryker's own markers (`// Stryker disable` comments) work per line and mutator, which would
// also hide the mutants beside them that a test should kill; an entry here names one mutant: its file, the code it
// replaces and what it puts there. An entry whose change also occurs on other lines of the file, where a test should
// notice it, names its `line` (the source line the mutant starts on) and matches there only; one without a `line` that
// matches two like lines says so. test/mutation/directory-thresholds.mjs leaves these out of the score (as Stryker does
// its Ignored mutants) and names any entry that no longer matches a surviving mutant, so the list cannot go stale
// unnoticed.
/** @type {{ file: string; mutator: string; original: string; replacement: string; line?: string; reason: string }[]} */
export const EQUIVALENT_MUTANTS = [
  // src/domain/catalogue.ts
  {
    file: 'src/domain/catalogue.ts',
    mutator: 'ConditionalExpression',
    original: 'min !== undefined',
    replacement: 'true',
    reason:
      'an absent min_width/min_height is undefined, and `undefined > max` is false (undefined compares as NaN), so ' +
      'the `min > max` term still adds no problem without a minimum',
  },
  {
    file: 'src/domain/catalogue.ts',
    mutator: 'ConditionalExpression',
    original: 'max !== undefined',
    replacement: 'true',
    reason: 'as above: `min > undefined` is false, so an absent maximum still adds no problem',
  },
  {
    file: 'src/domain/catalogue.ts',
    mutator: 'ConditionalExpression',
    original: 'min !== undefined && max !== undefined',
    replacement: 'true',
    reason:
      'leaves `min > max` alone, and with either bound absent that is `undefined > n` or `n > undefined`, false ' +
      '(undefined compares as NaN): the same two entries above, for both guards at once',
  },
  {
    file: 'src/domain/catalogue.ts',
    mutator: 'LogicalOperator',
    original: 'min !== undefined && max !== undefined',
    replacement: 'min !== undefined || max !== undefined',
    reason:
      'differs only when one bound is absent, and then `min > max` compares with undefined and is false, as above',
  },
  {
    file: 'src/domain/catalogue.ts',
    mutator: 'ConditionalExpression',
    original: 'value === null',
    replacement: 'false',
    reason:
      'deepFreeze(null) then still returns at once: typeof null is "object", but Object.isFrozen(null) is true ' +
      '(every primitive counts as frozen), the last term of the same condition',
  },
  {
    file: 'src/domain/catalogue.ts',
    mutator: 'LogicalOperator',
    original: "value === null || typeof value !== 'object' || Object.isFrozen(value)",
    replacement: "(value === null || typeof value !== 'object') && Object.isFrozen(value)",
    reason:
      'null and primitives still return (Object.isFrozen is true for them); only an object already frozen would be ' +
      'walked instead of skipped, and there is none: deepFreeze walks what catalogueFileSchema.safeParse returns ' +
      '(catalogue-schema.ts), which zod builds anew, every object, array and record, the multipliers default cloned, ' +
      'so nothing in it is shared or frozen before the walk reaches it (even from a frozen input)',
  },
  {
    file: 'src/domain/catalogue.ts',
    mutator: 'ConditionalExpression',
    original: "value === null || typeof value !== 'object'",
    replacement: 'false',
    reason:
      'the condition becomes Object.isFrozen(value), which is true for null and every primitive (ES2015), so they ' +
      'still return at once; nothing else reaches deepFreeze: catalogueFileSchema (catalogue-schema.ts) admits no ' +
      'function, the one non-object for which isFrozen is false',
  },
  {
    file: 'src/domain/catalogue.ts',
    mutator: 'LogicalOperator',
    original: "value === null || typeof value !== 'object'",
    replacement: "value === null && typeof value !== 'object'",
    reason: 'always false (typeof null is "object"), so the same as the entry above',
  },
  {
    file: 'src/domain/catalogue.ts',
    mutator: 'ConditionalExpression',
    original: "typeof value !== 'object'",
    replacement: 'false',
    reason: 'a primitive then returns through Object.isFrozen(value), true for every primitive, as two entries above',
  },
  // src/domain/catalogue-schema.ts
  {
    file: 'src/domain/catalogue-schema.ts',
    mutator: 'StringLiteral',
    original: "'custom'",
    replacement: '""',
    reason:
      'the issue’s code is read nowhere: parseCatalogue keeps only each issue’s path and message (catalogue.ts), and ' +
      'the schema’s other user, src/openapi/response-schemas.ts modelSchema, only becomes a JSON Schema, which has ' +
      'no refinements; zod keeps the given message whatever the code',
  },
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
    original: 'entries === undefined',
    replacement: 'false',
    reason: 'a cache never written has no entries, so `value` is undefined too and get() returns undefined either way',
  },
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
  // src/store/change-tracker.ts: shortcuts that save work without changing what is written or answered.
  {
    file: 'src/store/change-tracker.ts',
    mutator: 'ObjectLiteral',
    original: "{ timing: '', values: '', ids: '' }",
    replacement: '{}',
    reason: 'the constructor assigns `this.last` whole before anything reads it',
  },
  {
    file: 'src/store/change-tracker.ts',
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    reason:
      'the three starting texts of `last` (one entry for the three): the constructor replaces them before anything reads them',
  },
  {
    file: 'src/store/change-tracker.ts',
    mutator: 'ConditionalExpression',
    original: 'ctx.ids.moves() !== this.idMoves',
    replacement: 'true',
    reason:
      'a shortcut: `idMoves` and `last.ids` are taken at the same moment (constructor, next/accept), so while the moves stand the counters equal `last.ids` and the comparison it skips says the same',
  },
  {
    file: 'src/store/change-tracker.ts',
    mutator: 'ConditionalExpression',
    original: 'logs.length === 0 && !this.hasChanges()',
    replacement: 'false',
    reason:
      'a shortcut: with no moved log and hasChanges() false every part of the batch is empty (each mirrors a term of hasChanges), so the batch built is empty, and its accept() sets the same marks again',
  },
  {
    file: 'src/store/change-tracker.ts',
    mutator: 'ArrayDeclaration',
    original: '[]',
    replacement: '["Stryker was here"]',
    reason:
      'a batch past the `UNCHANGED` shortcut always writes something, and deleting an upload row whose id no upload has (ids are upl_…) deletes nothing',
  },
  {
    file: 'src/store/change-tracker.ts',
    mutator: 'ConditionalExpression',
    original: 'clockMoved',
    replacement: 'true',
    reason:
      'line 141: the clock meta written again is the same reading (frozen: the same instant; running: the offset from real time, recomputed from the live clock, equal up to the millisecond between its two reads of real time, with no drift kept); line 176: next() and accept() run in one synchronous turn (WorldRecord.prepare, the commit, accept), so the flag cannot be set between them',
  },
  {
    file: 'src/store/change-tracker.ts',
    mutator: 'ConditionalExpression',
    original: 'timing !== this.last.timing',
    replacement: 'true',
    reason: 'writes the timing meta again with the same text',
  },
  {
    file: 'src/store/change-tracker.ts',
    mutator: 'ConditionalExpression',
    original: 'values !== this.last.values',
    replacement: 'true',
    reason: "writes the kept values' meta again with the same text",
  },
  {
    file: 'src/store/change-tracker.ts',
    mutator: 'ConditionalExpression',
    original: 'ids !== this.last.ids',
    replacement: 'true',
    reason: "writes the id counters' meta again with the same text",
  },
  {
    file: 'src/store/change-tracker.ts',
    mutator: 'ConditionalExpression',
    original: 'ledger.length > 0',
    replacement: 'true',
    reason: 'with no new ledger entry the totals are unchanged: the same text written again',
  },
  {
    file: 'src/store/change-tracker.ts',
    mutator: 'EqualityOperator',
    original: 'ledger.length > 0',
    replacement: 'ledger.length >= 0',
    reason: 'as above: `>= 0` also rewrites the unchanged totals with the same text',
  },
  {
    file: 'src/store/change-tracker.ts',
    mutator: 'LogicalOperator',
    original: 'this.logMarks.get(log.name)?.seq ?? 0',
    replacement: 'this.logMarks.get(log.name)?.seq && 0',
    reason:
      "every log has a mark (set in the constructor for each log), so `&& 0` gives 0: the log's kept entries are all upserted again with the same rows, the new ones among them",
  },
  {
    file: 'src/store/change-tracker.ts',
    mutator: 'OptionalChaining',
    original: 'this.logMarks.get(log.name)?.seq',
    replacement: 'this.logMarks.get(log.name).seq',
    reason: 'every log has a mark (set in the constructor for each of `this.logs`): the lookup is never undefined',
  },
  {
    file: 'src/store/change-tracker.ts',
    mutator: 'ConditionalExpression',
    original: 'hasChanges',
    replacement: 'true',
    reason:
      'a batch past the `UNCHANGED` shortcut is never empty (each term of hasChanges or a moved log puts a row or a meta value in it), so `hasChanges` is already true here',
  },
  {
    file: 'src/store/change-tracker.ts',
    mutator: 'ArithmeticOperator',
    original: 'ctx.generations.uncommittedCount + ctx.ledger.uncommittedCount',
    replacement: 'ctx.generations.uncommittedCount - ctx.ledger.uncommittedCount',
    reason:
      "every ledger entry takes an id (the Ledger’s nextId is ids.next('led'), wiring/build-context.ts), so while one is " +
      'uncommitted the id counters differ from `last.ids` (both move on only in accept) and hasChanges() is true by that term',
  },
  // src/domain/canonical-json.ts
  {
    file: 'src/domain/canonical-json.ts',
    mutator: 'StringLiteral',
    original: "'null'",
    replacement: '""',
    reason:
      'unreachable: its one caller, submission.ts, fingerprints the body as http/routes/generations.ts read it ' +
      '(readJsonBody: JSON.parse, or toJs of Python’s decoding) or null; none of these holds undefined, a function or ' +
      "a symbol, the only values JSON.stringify answers undefined for, so `?? 'null'` never applies",
  },
  // src/domain/durations.ts
  {
    file: 'src/domain/durations.ts',
    mutator: 'StringLiteral',
    original: "'duration'",
    replacement: '""',
    reason:
      'the default field name reaches no message anyone sees: the callers that leave the field out are ' +
      'emulation/faults/fault-schema.ts durationSchema, which writes its own message and only looks for "at most" in ' +
      'this one (the field does not change that), and cli/option-values.ts isDuration, which drops the error; every ' +
      'other caller names its field',
  },
  {
    file: 'src/domain/durations.ts',
    mutator: 'MethodExpression',
    original: 'input.trim()',
    replacement: 'input',
    reason:
      "the `.replace(/\\s+/g, '')` after it removes every character trim() would (ECMAScript's \\s is trim's set: " +
      'WhiteSpace and LineTerminator), and toLowerCase() in between neither makes nor removes whitespace',
  },
  {
    file: 'src/domain/durations.ts',
    mutator: 'Regex',
    original: '/\\s+/g',
    replacement: '/\\s/g',
    reason: 'the replacement is empty: removing each whitespace character one by one removes the same as removing runs',
  },
  // src/domain/page-cursor.ts
  {
    file: 'src/domain/page-cursor.ts',
    mutator: 'StringLiteral',
    original: "'page'",
    replacement: '""',
    reason:
      'the member keeps a cursor’s message apart from other messages tagged with the same secret, and there are ' +
      'none: this file is the only caller of Signer.tag (infra/signer.ts, which prefixes `tag\\n` to keep tags apart ' +
      'from URL signatures). With "" the same cursors are accepted and refused; only the text of each tag changes, ' +
      'which docs/api.md calls opaque (and which is still the same on every run with one --signing-secret)',
  },
  {
    file: 'src/domain/page-cursor.ts',
    mutator: 'ConditionalExpression',
    original: 'dot > 0 && Number.isSafeInteger(before)',
    replacement: 'true',
    reason:
      'newly lets through (1) a position past 2^53 after the dot: the emulator issues cursors for seqs only, safe ' +
      'integers, so the tag check refuses it unless the client forged a 128-bit HMAC; (2) a cursor without a dot whose ' +
      'characters but the last spell a number: the tag check compares that whole cursor with a tag of 22 characters ' +
      '(infra/signer.ts: TAG_BYTES in base64url), so it can match only at 22 characters, whose first 21 spell no safe ' +
      'integer (a safe integer takes at most 17), as in (1). Only the cost differs (one more HMAC)',
  },
  {
    file: 'src/domain/page-cursor.ts',
    mutator: 'LogicalOperator',
    original: 'dot > 0 && Number.isSafeInteger(before)',
    replacement: 'dot > 0 || Number.isSafeInteger(before)',
    reason:
      'lets through a position past 2^53 after the dot (refused by the tag check, as above), and a cursor without a ' +
      'dot whose characters but the last spell a safe integer: at most 18 characters, which the tag check compares ' +
      'whole with a 22-character tag, so it is refused too',
  },
  {
    file: 'src/domain/page-cursor.ts',
    mutator: 'ConditionalExpression',
    original: 'dot > 0',
    replacement: 'true',
    reason:
      'lets through only a cursor without a dot whose characters but the last spell a safe integer (a dot at 0 leaves ' +
      'the position "", which Number reads as 0, spelled "0": refused by the next test); the tag check compares that ' +
      'whole cursor, at most 18 characters, with a 22-character tag and refuses it',
  },
  {
    file: 'src/domain/page-cursor.ts',
    mutator: 'EqualityOperator',
    original: 'dot > 0',
    replacement: 'dot >= 0',
    reason:
      'adds a dot at 0 only: the position "" reads as Number("") = 0, spelled "0", so the spelling test refuses it',
  },
  // src/domain/media-spec.ts
  {
    file: 'src/domain/media-spec.ts',
    mutator: 'EqualityOperator',
    original: 'rw >= rh',
    replacement: 'rw > rh',
    reason:
      'only a square aspect (rw = rh) takes the other branch, which then gives the same size: both sides are the ' +
      'short side (videoSize) or the long side (imageSize); matches that change in both functions',
  },
  // src/domain/reference-rules.ts
  {
    file: 'src/domain/reference-rules.ts',
    mutator: 'ConditionalExpression',
    original: 'refs.includes(id) && slots.some((s) => s.role === role)',
    replacement: 'true',
    reason:
      'assignFrames runs only after checkRules (submission.ts), whose roleItems refuses a ref_roles key not in refs ' +
      '(model_ref_role_unknown_ref) and a role no slot of the model has (model_ref_role_conflict): both sides are true',
  },
  {
    file: 'src/domain/reference-rules.ts',
    mutator: 'LogicalOperator',
    original: 'refs.includes(id) && slots.some((s) => s.role === role)',
    replacement: 'refs.includes(id) || slots.some(s => s.role === role)',
    reason: 'both sides are always true here, for the reason of the entry above',
  },
  {
    file: 'src/domain/reference-rules.ts',
    mutator: 'ConditionalExpression',
    original: 's.role === role',
    replacement: 'true',
    reason:
      'checkRules (roleItems) refuses a role no slot has before assignFrames runs, so some slot has the role and ' +
      '`some` is true either way (the slot list is not empty)',
  },
  {
    file: 'src/domain/reference-rules.ts',
    mutator: 'ConditionalExpression',
    original: 'role === undefined',
    replacement: 'false',
    reason:
      'once the free roles run out, give() files the next ref under the role `undefined` and ignores the rest (that ' +
      'role is taken); the result reads only the roles first and last, and the refs to place were listed before the loop',
  },
  {
    file: 'src/domain/reference-rules.ts',
    mutator: 'ArrayDeclaration',
    original: '[]',
    replacement: '["Stryker was here"]',
    line: 'const slots = model.reference_inputs?.slots ?? [];',
    reason:
      "assignFrames' `model.reference_inputs?.slots ?? []`, a model without reference inputs: a string " +
      'as its one "slot" has no name and no role, so slotOwners matches no ref_slots key, no ref_roles role equals ' +
      'its undefined role, and its undefined free role ends the refs loop at once (`role === undefined`), as an ' +
      'empty list does: the frames are {} either way',
  },
  // src/domain/zod-issues.ts
  {
    file: 'src/domain/zod-issues.ts',
    mutator: 'ConditionalExpression',
    original: "issue.code === 'invalid_type'",
    replacement: 'true',
    reason:
      'only an invalid_type issue says "received": zod writes it in that message alone (node_modules/zod/v4/locales/' +
      'en.js), and no schema in src/ whose issues reach fieldProblems sets a message of its own with that word',
  },
  {
    file: 'src/domain/zod-issues.ts',
    mutator: 'Regex',
    original: '/^Invalid input: /',
    replacement: '/Invalid input: /',
    reason:
      'zod writes "Invalid input: " only at the start of a message (locales/en.js); the only text after it that a ' +
      'schema chooses is a z.literal value, and no schema in src/ has one with that text, nor a message of its own',
  },
  // src/domain/backlog.ts
  {
    file: 'src/domain/backlog.ts',
    mutator: 'EqualityOperator',
    original: 'this.head >= this.items.length',
    replacement: 'this.head > this.items.length',
    reason:
      'differs only on an empty backlog (head never passes length): the shift then reads and writes undefined at ' +
      'items[length], so head and length both grow by one, size stays 0 and it returns undefined as before; the ' +
      'extra slots are consumed ones, dropped by the compaction once head passes 1024 (head * 2 > length then)',
  },
  {
    file: 'src/domain/backlog.ts',
    mutator: 'ConditionalExpression',
    original: 'this.head >= this.items.length',
    replacement: 'false',
    reason: 'as `>` above: head never exceeds length, so only the empty backlog differs, with the same answers',
  },
  {
    file: 'src/domain/backlog.ts',
    mutator: 'ConditionalExpression',
    original: 'this.head > 1024 && this.head * 2 > this.items.length',
    replacement: 'true',
    reason:
      'compacts on every shift: the same items in the same order, storage only smaller; only the cost differs ' +
      '(a copy of what waits per shift), which no test may measure (no timings)',
  },
  {
    file: 'src/domain/backlog.ts',
    mutator: 'LogicalOperator',
    original: 'this.head > 1024 && this.head * 2 > this.items.length',
    replacement: 'this.head > 1024 || this.head * 2 > this.items.length',
    reason:
      'compacts more often (also below 1024 consumed slots, and after 1024 whatever waits): same items and order, ' +
      'storage only smaller; only the cost of the copies differs',
  },
  {
    file: 'src/domain/backlog.ts',
    mutator: 'ConditionalExpression',
    original: 'this.head > 1024',
    replacement: 'true',
    reason:
      'compacts whenever consumed slots are most of the array, also below 1024: same items and order, storage ' +
      'only smaller; the copy is of fewer items than were shifted since the last one, so even the cost stays O(1)',
  },
  {
    file: 'src/domain/backlog.ts',
    mutator: 'EqualityOperator',
    original: 'this.head > 1024',
    replacement: 'this.head >= 1024',
    reason: 'may compact one shift earlier: same items and order, storage one slot smaller',
  },
  {
    file: 'src/domain/backlog.ts',
    mutator: 'ConditionalExpression',
    original: 'this.head * 2 > this.items.length',
    replacement: 'true',
    reason:
      'compacts every 1025 shifts whatever waits: same items and order, storage only smaller (within 1025 of ' +
      'what waits); only the cost differs (a copy of what waits per 1025 shifts)',
  },
  {
    file: 'src/domain/backlog.ts',
    mutator: 'EqualityOperator',
    original: 'this.head * 2 > this.items.length',
    replacement: 'this.head * 2 >= this.items.length',
    reason: 'adds the tie (consumed slots exactly half the array): compacts one shift earlier, same items and order',
  },
  // --- branch kill39j: src/domain/{request-checks,state-invariants,queries}.ts ---
  // src/domain/request-checks.ts: locOf's last line, which no ref reaches.
  {
    file: 'src/domain/request-checks.ts',
    mutator: 'ArrayDeclaration',
    original: "['body', 'refs']",
    replacement: '[]',
    reason:
      'locOf is called only from resolveRefs with an id of refIds(input) (reference-rules.ts), which gives only ' +
      'ids of input.refs and of input.ref_slots: the refs lookup or the slots loop above returns for each, so this ' +
      'fallback is never reached',
  },
  {
    file: 'src/domain/request-checks.ts',
    mutator: 'StringLiteral',
    original: "'body'",
    replacement: '""',
    line: "return ['body', 'refs'];",
    reason: 'in the fallback locOf never reaches (entry above)',
  },
  {
    file: 'src/domain/request-checks.ts',
    mutator: 'StringLiteral',
    original: "'refs'",
    replacement: '""',
    line: "return ['body', 'refs'];",
    reason: 'in the fallback locOf never reaches (entry above)',
  },
  // src/domain/state-invariants.ts
  {
    file: 'src/domain/state-invariants.ts',
    mutator: 'ConditionalExpression',
    original: 'e.generationId === undefined',
    replacement: 'false',
    reason:
      'then `generations.get(undefined)`, which is undefined too: the map is keyed by generation ids, which ' +
      'domainSnapshotSchema (state-snapshot.ts, generations[].id: recordId, a z.string()) makes strings, so the ' +
      'entry is refused as naming no generation either way',
  },
  {
    file: 'src/domain/state-invariants.ts',
    mutator: 'ConditionalExpression',
    original: 'c',
    replacement: 'true',
    line: 'if (c) refundable.set(g.accountId, (refundable.get(g.accountId) ?? 0) + c.charged - c.refunded);',
    reason:
      'refundRoom runs after checkInvariants has refused any generation without a charge ' +
      "(`!credits.get(g.id)?.charges`), so every generation's `c` is defined there",
  },
  // --- end of branch kill39j ---
  // src/domain/estimate.ts
  {
    file: 'src/domain/estimate.ts',
    mutator: 'OptionalChaining',
    original: 'ctx.promptCheck?.(input.prompt)',
    replacement: 'ctx.promptCheck(input.prompt)',
    reason:
      'differs only when the context has no promptCheck, and none does: buildContext’s one caller ' +
      '(world-factory.ts, the World’s build) passes shared.promptCheck, which SharedParts types as required and ' +
      'pluginAnswers always sets (to a function that itself tolerates a missing plane)',
  },
  // src/domain/generation-refunds.ts
  {
    file: 'src/domain/generation-refunds.ts',
    mutator: 'ObjectLiteral',
    original: '{ allowNothingLeft: false }',
    replacement: '{}',
    reason:
      'refundAmount reads allowNothingLeft only as the condition `if (allowNothingLeft)`; from {} it is undefined, ' +
      'which is falsy as false is: a generation with nothing left is refused with already_refunded either way',
  },
  {
    file: 'src/domain/generation-refunds.ts',
    mutator: 'ConditionalExpression',
    original: "typeof request.refund === 'object'",
    replacement: 'true',
    reason:
      'the other refund requests are the strings "full" and "none", whose `.partial` is undefined, and ' +
      '`undefined > left` is false: they are not refused either way',
  },
  // --- kill39s1: src/store/{state-document,resume-state,change-tracker}.ts (measured 2026-11-28 15:15 UTC) ---
  // src/store/state-document.ts
  {
    file: 'src/store/state-document.ts',
    mutator: 'ConditionalExpression',
    original: "s.kind === 'log'",
    replacement: 'false',
    reason:
      'exportState then also structuredClones a log’s part, which is already a fresh copy: the one KeptLog, ' +
      'JournalSection.current(), returns Journal.snapshot(), a new array of shallow-copied entries (the journal ' +
      'changes an entry in place only at its top level, record(): requestBody/responseBody set to null), all JSON ' +
      'values, so the clone is an equal document; only the copying costs more',
  },
  {
    file: 'src/store/state-document.ts',
    mutator: 'StringLiteral',
    original: "'log'",
    replacement: '""',
    reason:
      'no section’s kind is "", so this is the `s.kind === \'log\'` → false mutant above: a log’s copy copied again',
  },
  {
    file: 'src/store/state-document.ts',
    mutator: 'ConditionalExpression',
    original: "typeof s !== 'object'",
    replacement: 'false',
    reason:
      'a truthy input that is no object is a JSON primitive (importState’s callers pass a parsed JSON body, ' +
      'state-api.ts importState, or readStoredState’s object, world-record.ts load), and a primitive’s `format` ' +
      'reads its prototype’s, which is undefined: the `s.format !== STATE_FORMAT` term refuses it, with the same message',
  },
  {
    file: 'src/store/state-document.ts',
    mutator: 'ArrayDeclaration',
    original: '[]',
    replacement: '["Stryker was here"]',
    reason:
      'a failed write’s clean-up then also removes the id "Stryker was here", which no upload store holds (an upload ' +
      'id has no spaces: checkUploadId), and both stores’ remove() do nothing for an id their cap does not count ' +
      '(cap.forget false: upload-blobs.ts createMemoryUploadBlobs, node/disk-upload-blobs.ts)',
  },
  // src/store/resume-state.ts
  {
    file: 'src/store/resume-state.ts',
    mutator: 'StringLiteral',
    original: "'store'",
    replacement: '""',
    reason:
      'line 40, the restore’s origin: Runtime.restore uses it only to call afterRestore(origin), whose one ' +
      'implementation (world-factory.ts) rotates the signing secret only for "import"; "" is not "import" either. ' +
      '(This entry also matches the same change on line 39, the sections’ origin, which the tests kill today.)',
  },
  // src/store/change-tracker.ts
  {
    file: 'src/store/change-tracker.ts',
    mutator: 'OptionalChaining',
    original: 'was?.seq',
    replacement: 'was.seq',
    reason:
      'movedLogs() looks up the marks of `this.logs` only, each set in the constructor and only ever replaced ' +
      '(accept), never deleted: `was` is never undefined',
  },
  // --- branch kill39s2: src/store/{world-record,record-sources,response-gate}.ts ---
  // src/store/world-record.ts: flags read only where the state they guard against cannot occur.
  {
    file: 'src/store/world-record.ts',
    mutator: 'BooleanLiteral',
    original: 'false',
    replacement: 'true',
    reason:
      '`writing = false` (the only surviving false → true here: those of loading, closed and restoring are killed ' +
      'by world-record.test.ts): `writing` is read only by the flush, which runs only from a query of a store a ' +
      'ChangeTracker attached to these sources; each tracker is made in a prepare()’s accept, after commitWorlds’s ' +
      'finally set writing false, or in load(), just before its commit (synchronously), whose finally does; a ' +
      'closed store’s commit skips that, but then writes nothing, flush or not',
  },
  {
    file: 'src/store/world-record.ts',
    mutator: 'ConditionalExpression',
    original: '!this.writing && !this.loading',
    replacement: 'true',
    reason:
      'while writing nothing queries these sources (next() and fullBatch read the heap; a context written whole is ' +
      'attached to them only by the accept’s new ChangeTracker), and while loading commits.commit reaches ' +
      'prepare(), which returns undefined while loading: nothing is written either way',
  },
  {
    file: 'src/store/world-record.ts',
    mutator: 'LogicalOperator',
    original: '!this.writing && !this.loading',
    replacement: '!this.writing || !this.loading',
    reason: 'commits only in the two cases of the entry above, where nothing is queried or nothing is written',
  },
  // src/store/record-sources.ts
  {
    file: 'src/store/record-sources.ts',
    mutator: 'ArrayDeclaration',
    original: '[]',
    replacement: '["Stryker was here"]',
    reason:
      'the `: []` arm never runs: each id comes from generationKeys, a SELECT of the same generations table, and ' +
      'store.document reads that row at once, synchronously, on the same connection (keys escaped and unescaped ' +
      'alike), so `held(id) ?? parse(...)` always finds it',
  },
  // src/store/response-gate.ts
  {
    file: 'src/store/response-gate.ts',
    mutator: 'StringLiteral',
    original: "'store epoch'",
    replacement: '""',
    reason:
      'exchangeSlot() names only its Symbol’s description; each Symbol() is unique whatever it says, and nothing ' +
      'in src reads a description or an exchange’s symbol keys',
  },
  {
    file: 'src/store/response-gate.ts',
    mutator: 'OptionalChaining',
    original: 'began?.epoch',
    replacement: 'began.epoch',
    reason:
      'verdict() judges only exchanges whose slot is set: the gate judges at once only in the branch where ' +
      '`started.get(x)` is defined, and an exchange joins the group only after `before` (a change) or the gate ' +
      '(a read) set it; each member is judged once',
  },
  {
    file: 'src/store/response-gate.ts',
    mutator: 'ConditionalExpression',
    original: 'refusals.size === 0',
    replacement: 'false',
    reason:
      'with no refusal the lookup it returns instead answers `refusals.get(...)` of an empty map: undefined for ' +
      'every member, as the group commit’s `refusalOf?.(member)` answers without it',
  },
  // --- end of branch kill39s2 ---
  // --- branch kill39i: src/domain/{generation-view,output-files,move-timers,generation}.ts ---
  // src/domain/generation-view.ts
  {
    file: 'src/domain/generation-view.ts',
    mutator: 'ConditionalExpression',
    original: '!REFUND_SENTENCE.test(message)',
    replacement: 'false',
    reason:
      'the early return only skips work: without it a message with no refund sentence goes to ' +
      '`message.replace(REFUND_SENTENCE, ...)`, which with no match returns the message unchanged, and billingStatus ' +
      'is pure (REFUND_SENTENCE has no g flag, so test() keeps no lastIndex between calls)',
  },
  // --- end of branch kill39i ---
  // --- branch kill39h: src/store/store-of-record.ts (measured 2026-11-28 20:49-21:31 UTC) ---
  {
    file: 'src/store/store-of-record.ts',
    mutator: 'BooleanLiteral',
    original: 'true',
    replacement: 'false',
    line: 'record.writing = true;',
    reason:
      '`writing` is read only by the flush of world-record.ts, and (as its entries for `!this.writing && ' +
      '!this.loading` say) nothing queries the sources while commitWorlds prepares or writes: next() and fullBatch ' +
      'read the heap, and the reload after a refused commit sets loading before it reads anything',
  },
  {
    file: 'src/store/store-of-record.ts',
    mutator: 'ConditionalExpression',
    original: 'batches.length === 1',
    replacement: 'false',
    reason:
      'with one batch both arms run the same code of infra/sqlite-store.ts: the view’s commit is ' +
      '`transaction(() => apply(world, batch))`, the root’s commitTogether `transaction(() => { for (each of ' +
      'batches) apply(each.world, each.batch) })` with `world` = that view’s world; same transaction, same failure',
  },
  {
    file: 'src/store/store-of-record.ts',
    mutator: 'MethodExpression',
    original: '[...records].filter((record) => !record.restoring && !record.unread)',
    replacement: '[...records]',
    reason:
      'the background pass ignores the refusals commitWorlds returns, and an unread world’s prepare() only adds its ' +
      'state_not_loaded to them (writing nothing); a restoring world is loading whenever a timer runs (restore() ' +
      'sets restoring and load() loading in one synchronous step; restoring is cleared in the microtask after ' +
      'load() clears loading, before any timer), and prepare() returns undefined while loading: nothing more is ' +
      'written, thrown or logged',
  },
  {
    file: 'src/store/store-of-record.ts',
    mutator: 'ConditionalExpression',
    original: '!record.restoring && !record.unread',
    replacement: 'true',
    reason: 'keeps every world in the background pass: the entry above',
  },
  {
    file: 'src/store/store-of-record.ts',
    mutator: 'LogicalOperator',
    original: '!record.restoring && !record.unread',
    replacement: '!record.restoring || !record.unread',
    reason: 'keeps a restoring or an unread world in the background pass: the entry above',
  },
  {
    file: 'src/store/store-of-record.ts',
    mutator: 'ConditionalExpression',
    original: '!closed && !record.closed',
    replacement: 'true',
    reason:
      'drops only that guard of another world’s close: with the store closed commitWorlds returns at once (its ' +
      '`if (closed)`), and a world already closed or dropped has closed set, so its prepare() returns undefined; ' +
      'nothing is written either way, and the close goes on as before (the restoring and unread terms are killed ' +
      'by store-of-record-lifecycle.test.ts)',
  },
  {
    file: 'src/store/store-of-record.ts',
    mutator: 'LogicalOperator',
    original: '!closed && !record.closed',
    replacement: '!closed || !record.closed',
    reason: 'differs only when the store or the world is closed: the entry above',
  },
  {
    file: 'src/store/store-of-record.ts',
    mutator: 'ConditionalExpression',
    original: 'closed',
    replacement: 'false',
    line: 'if (closed) return;',
    reason:
      'a second close of the first world without it: clearInterval of a cleared timer, gate.settle() of an empty ' +
      'group (the gate joins nothing once closed), commitWorlds returns at once (closed), every record is already ' +
      'closed, and store.close() is idempotent on every host (infra/sql-connection.ts’s close checks `open`, the ' +
      'page keeper’s in infra/sqlite-browser.ts `stopped`, and sql.js’s Database.close does nothing once closed)',
  },
  {
    file: 'src/store/store-of-record.ts',
    mutator: 'BooleanLiteral',
    original: 'true',
    replacement: 'false',
    line: 'for (const each of records) each.closed = true;',
    reason:
      'once the store’s own `closed` is set, every reader of a world’s `closed` is behind it: prepare() runs only ' +
      'in commitWorlds, which returns first when closed; the gate’s hook checks deps.closed() before world.closed ' +
      'and its group commit runs only while mayWrite() (`!closed`); another world’s close checks `!closed` first',
  },
  // --- end of branch kill39h ---
  // --- branch kill39k ---
  {
    file: 'src/store/node/legacy-state-file.ts',
    mutator: 'StringLiteral',
    original: "'utf8'",
    replacement: '""',
    line: "parsed = JSON.parse(readFileSync(path, 'utf8'));",
    reason:
      'readFileSync with an empty encoding returns the Buffer, and JSON.parse reads its argument through String(), ' +
      'which decodes a Buffer as UTF-8: the same text is parsed (an invalid file fails alike)',
  },
  {
    file: 'src/store/node/legacy-state-file.ts',
    mutator: 'ConditionalExpression',
    original: 'record.control',
    replacement: 'true',
    reason:
      'Object.assign(state.control, undefined) copies nothing (Object.assign skips undefined sources), so a record ' +
      'without control leaves the kept values as the guard does',
  },
  {
    file: 'src/store/node/legacy-state-file.ts',
    mutator: 'ArrayDeclaration',
    original: '[]',
    replacement: '["Stryker was here"]',
    line: 'for (const e of record.ledger ?? []) if (e.seq > lastSeq) d.ledger.push(e);',
    reason:
      'for a record without ledger the loop then visits one string, whose `.seq` is undefined, and ' +
      '`undefined > lastSeq` is false (undefined compares as NaN): nothing is pushed, as with the empty list',
  },
  // --- end of branch kill39k ---
  // src/store/node/state-migration.ts (kill39p)
  {
    file: 'src/store/node/state-migration.ts',
    mutator: 'StringLiteral',
    original: `\`\${building}-wal\``,
    replacement: '``',
    reason:
      'the database file itself (`building`, first in the list) is still removed, and SQLite deletes a -wal beside a ' +
      'database of no pages unread, at its first read (pager.c, pagerOpenWalIfPresent: nPage==0 deletes zWal); tried ' +
      'with the real log of an interrupted migration holding a ledger row the new state lacks: the row did not come ' +
      'back and the file was gone. In the catch the connection is closed, and SQLite deletes its log on close (none ' +
      'was left under this mutant when a full disk refused the commit, or the open). Only a lone stale -wal in a ' +
      "folder the emulator cannot write differs: rmSync's EACCES instead of the open's StoreRefused, failing either way",
  },
  // src/domain/state-records.ts (kill39o)
  {
    file: 'src/domain/state-records.ts',
    mutator: 'ConditionalExpression',
    original: 'id === undefined',
    replacement: 'false',
    reason:
      'idNumber(undefined) then runs the regex on undefined, which RegExp.prototype.exec reads as the string ' +
      '"undefined": no `_digits` in it, so no match and digits is undefined, as the guard gives',
  },
  {
    file: 'src/domain/state-records.ts',
    mutator: 'ConditionalExpression',
    original: 'digits === undefined',
    replacement: 'false',
    reason:
      "idNumber is read only by headroomProblems' check; for an id that is not sequential it then returns " +
      'Number(undefined), NaN, and `NaN > MAX_IMPORTED_COUNTER` is false: no problem, as with undefined',
  },
  {
    file: 'src/domain/state-records.ts',
    mutator: 'ConditionalExpression',
    original: 'value !== undefined',
    replacement: 'true',
    reason:
      'leaves `value > MAX_IMPORTED_COUNTER`, and for an absent value (a generation without requestId, an id that ' +
      'is not sequential) that is `undefined > n`, false (undefined compares as NaN): no problem either way',
  },
  // src/domain/generation-credits.ts (kill39n)
  {
    file: 'src/domain/generation-credits.ts',
    mutator: 'ConditionalExpression',
    original: 'e.generationId === undefined',
    replacement: 'false',
    line: 'if (e.generationId === undefined) return;',
    reason:
      'an entry without a generation then goes into pending (and chargeTimes) under the key undefined, which no ' +
      'lookup asks for: one, of and chargeTime take generation ids, strings, so every answer stays the same',
  },
  {
    file: 'src/domain/generation-credits.ts',
    mutator: 'ConditionalExpression',
    original: 'e.generationId !== undefined',
    replacement: 'true',
    line: 'for (const e of done) if (e.generationId !== undefined) this.stored.delete(e.generationId);',
    reason:
      'then stored.delete(undefined) runs for an entry without a generation, and the cache never holds the key ' +
      'undefined (it is set only for the string ids asked for): nothing is dropped',
  },
  {
    file: 'src/domain/generation-credits.ts',
    mutator: 'ConditionalExpression',
    original: 'missing.length === 1',
    replacement: 'false',
    reason:
      'a single missing id is then read with ofGenerations([id]) instead of ofGeneration(id); both answer the same ' +
      "entries in the same order (the same json_extract(json, '$.generationId') match on the ledger table, ORDER BY " +
      'key, in sqlite-reads.ts), so the sums are the same: the branch only spares preparing a one-mark IN statement',
  },
  {
    file: 'src/domain/generation-credits.ts',
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    line: "const credits = read.get(e.generationId ?? '');",
    reason:
      'the fallback is never taken: ofGeneration/ofGenerations answer only entries whose generationId equals an id ' +
      'asked for (an SQL equality on it), so e.generationId is always one of the keys of `read`, never undefined',
  },
  {
    file: 'src/domain/generation-credits.ts',
    mutator: 'ConditionalExpression',
    original: 'credits',
    replacement: 'true',
    line: 'if (credits) addTo(credits, e);',
    reason:
      'as above: every entry the source answers names one of the missing ids, the keys of `read`, so `credits` is ' +
      'always found and the guard always true',
  },
  // src/domain/submission.ts (kill39q)
  {
    file: 'src/domain/submission.ts',
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    reason:
      'the base URL of the signer that toPublicGeneration gets for the 202 answer: a signer only runs for a completed ' +
      "generation's outputs (generation-view.ts), and the one just created is always pending, so no URL is ever made " +
      'with it; making the signer itself has no effect (wiring/output-urls.ts returns a closure)',
  },
  // src/domain/runtime.ts (kill39r)
  {
    file: 'src/domain/runtime.ts',
    mutator: 'ConditionalExpression',
    original: 'next !== undefined',
    replacement: 'true',
    reason:
      "advance's step loop then tests `undefined <= target` when nothing is scheduled, and that is false (undefined " +
      'compares as NaN): the loop ends there as the guard makes it',
  },
  {
    file: 'src/domain/runtime.ts',
    mutator: 'EqualityOperator',
    original: 'next <= target',
    replacement: 'next < target',
    reason:
      'a move due exactly at the target is then run by the final `scheduler.advance(target - now)` and its settle() ' +
      'instead of a last loop step making that same call and settle: the same tasks, clock readings and awaited ' +
      'renders: a render that ends schedules no move (a move is scheduled only by a submission, or by a move the ' +
      "drain runs, and the drain runs every task due by the target); only a submission made during advance's awaits " +
      'could differ, and neither version orders that',
  },
  // src/domain/state-snapshot.ts (kill39-ss)
  {
    file: 'src/domain/state-snapshot.ts',
    mutator: 'StringLiteral',
    original: "''",
    replacement: '"Stryker was here!"',
    line: "for (const id of existing) max = Math.max(max, Number(pattern.exec(id ?? '')?.[1] ?? 0));",
    reason:
      'advancePast reads it only for an absent id (a generation without a requestId), and its pattern ' +
      "`^(gen|req|upl)_(\\d+)$` matches neither '' nor that text: both count 0 and leave the sequence where it is",
  },
  {
    file: 'src/domain/state-snapshot.ts',
    mutator: 'MethodExpression',
    original: '[...s.generations].sort((a, b) => a.seq - b.seq)',
    replacement: '[...s.generations]',
    reason:
      "importDomain then adds the generations in the file's order: that order is never read. Every listing sorts by " +
      'seq (GenerationStore.newestFirst for all, page and census; the summary sorts soonestToMove by time, then seq); ' +
      'the seq sequence skips past the largest seq, not the last; restartInFlight begins each first move ranked by ' +
      "its generation's seq (buildContext gives the lifecycle lastSeq, and an import refuses a seq twice), so moves " +
      'due at one instant run by seq whatever order they were scheduled in; and the store of record writes each ' +
      'generation as a row keyed by its own seq, in one transaction',
  },
  {
    file: 'src/domain/state-snapshot.ts',
    mutator: 'ArithmeticOperator',
    original: 'a.seq - b.seq',
    replacement: 'a.seq + b.seq',
    reason: 'as above: the generations come in some other order than by seq, and that order is never read',
  },
  {
    file: 'src/domain/state-snapshot.ts',
    mutator: 'ArrowFunction',
    original: '(a, b) => a.seq - b.seq',
    replacement: '() => undefined',
    reason: 'as above: the generations come in some other order than by seq, and that order is never read',
  },
  // src/domain/generation-store.ts (kill39-gs)
  {
    file: 'src/domain/generation-store.ts',
    mutator: 'ConditionalExpression',
    original: 'out.length === limit',
    replacement: 'false',
    reason:
      'heldPage then walks every remaining generation instead of stopping at limit + 1, but page() keeps only the ' +
      'first `limit` of them and asks only whether there were more than `limit`: the same items and the same cursor ' +
      '(the walk only reads the heap, so the extra steps change nothing but time)',
  },
  // src/domain/lifecycle.ts (measured 2026-11-29 05:58-06:15 UTC)
  {
    file: 'src/domain/lifecycle.ts',
    mutator: 'ConditionalExpression',
    original: '!this.deps.find',
    replacement: 'true',
    line: 'if (!this.deps.find) this.known.set(g.id, g);',
    reason:
      '`known` is read only when there is no `find` (fire: `this.deps.find ? this.deps.find(id) : this.known.get(id)`), ' +
      'and forget() deletes the entry when the generation finishes: with a store of record it would hold the same ' +
      'in-flight generations the heap holds, unread',
  },
  {
    file: 'src/domain/lifecycle.ts',
    mutator: 'ConditionalExpression',
    original: 'fail',
    replacement: 'true',
    line: 'if (fail) this.fail(g, fail, fail.refund);',
    reason:
      'failRunningDue is scheduled in one place only, toRunning, and only when `g.plan.fail?.at === "running"`; a plan ' +
      'is fixed at acceptance and never changed, so when it fires `fail` is always set',
  },
  {
    file: 'src/domain/lifecycle.ts',
    mutator: 'ConditionalExpression',
    original: "g.status !== 'running'",
    replacement: 'false',
    line: "if (g.status !== 'running' || !this.timerDone.has(g.id) || !outputs) return;",
    reason:
      'maybeComplete is reached with a generation that is running, or (completeNow after its await, the render ' +
      'outcome after a stop) one already finished; finishing it went through forget(), which cleared timerDone and ' +
      'rendered, so the next terms return just the same; it is never pending (renders start only from running)',
  },
];
