// Each record of an imported state is there once (ids, secrets, idempotency keys), an import brings no more keys or accounts than creating allows, and its counters leave room for what follows.
import { accountIdSchema, MAX_ACCOUNTS, MAX_KEYS } from './accounts.js';
import { IMPORTED_COUNTER_RULE, MAX_IMPORTED_COUNTER } from './counters.js';
import type { DomainSnapshot } from './domain-snapshot.js';
import type { RestoreOrigin } from './runtime.js';
import type { FieldProblem } from './zod-issues.js';
import { thousands } from './thousands.js';

interface Unique<T> {
  collection: string;
  /** The member's path after the index, e.g. `.id`; '' for the entry itself. */
  member: string;
  label: string;
  valueOf: (item: T) => unknown;
  /** Secrets are not repeated in an answer. */
  hidden?: boolean;
}

/** A value seen before is a problem naming both places: two records under one id would be merged or one hidden. */
function duplicates<T>(items: readonly T[], rule: Unique<T>): FieldProblem[] {
  const seen = new Map<unknown, number>();
  const problems: FieldProblem[] = [];
  items.forEach((item, i) => {
    const value = rule.valueOf(item);
    if (value === undefined) return;
    const first = seen.get(value);
    if (first === undefined) {
      seen.set(value, i);
      return;
    }
    const what = rule.hidden ? `the same ${rule.label}` : `${rule.label} ${JSON.stringify(value)}`;
    problems.push({
      field: `domain.${rule.collection}[${i}]${rule.member}`,
      message: `${what} as ${rule.collection}[${first}]; each must be unique`,
    });
  });
  return problems;
}

function tooMany(collection: string, count: number, max: number): FieldProblem[] {
  if (count <= max) return [];
  return [
    {
      field: `domain.${collection}`,
      message: `${thousands(count)} ${collection}; an import brings at most ${thousands(max)} (the bound on creating them): import fewer`,
    },
  ];
}

/**
 * On an import, more keys or accounts than creating allows; read before any record is checked, so a hostile count
 * costs nothing. A start from the store of record is not bounded: a store kept before the bounds existed may hold
 * more, and still loads whole.
 */
export function countProblems(input: unknown, origin: RestoreOrigin): FieldProblem[] {
  if (origin !== 'import') return [];
  const s = input as { accounts?: unknown; keys?: unknown } | null;
  const length = (value: unknown) => (Array.isArray(value) ? value.length : 0);
  return [...tooMany('accounts', length(s?.accounts), MAX_ACCOUNTS), ...tooMany('keys', length(s?.keys), MAX_KEYS)];
}

/** Every record that repeats the id (or secret, or key) of an earlier one. */
export function duplicateProblems(s: DomainSnapshot): FieldProblem[] {
  return [
    ...duplicates(s.accounts, { collection: 'accounts', member: '.id', label: 'account id', valueOf: (a) => a.id }),
    ...duplicates(s.keys, { collection: 'keys', member: '.id', label: 'key id', valueOf: (k) => k.id }),
    ...duplicates(s.keys, {
      collection: 'keys',
      member: '.secret',
      label: 'secret',
      valueOf: (k) => k.secret,
      hidden: true,
    }),
    ...duplicates(s.ledger, { collection: 'ledger', member: '.id', label: 'entry id', valueOf: (e) => e.id }),
    ...duplicates(s.generations, {
      collection: 'generations',
      member: '.id',
      label: 'generation id',
      valueOf: (g) => g.id,
    }),
    ...duplicates(s.generations, { collection: 'generations', member: '.seq', label: 'seq', valueOf: (g) => g.seq }),
    ...duplicates(s.uploads, { collection: 'uploads', member: '.id', label: 'upload id', valueOf: (u) => u.id }),
    ...duplicates(s.idempotency, {
      collection: 'idempotency',
      member: '[0]',
      label: 'idempotency key',
      valueOf: ([key]) => key,
    }),
  ];
}

/** The number a sequential id carries (`gen_000042` → 42), or undefined for any other id. */
const idNumber = (id: string | undefined) => {
  const digits = id === undefined ? undefined : /^[a-z]+_(\d+)$/.exec(id)?.[1];
  return digits === undefined ? undefined : Number(digits);
};

/** On an import, account ids as create_account takes them; a store an older emulator wrote keeps the ids it holds. */
export function accountIdProblems(s: DomainSnapshot, origin: RestoreOrigin): FieldProblem[] {
  if (origin !== 'import') return [];
  return s.accounts.flatMap((a, i) => {
    const checked = accountIdSchema.safeParse(a.id);
    return checked.success ? [] : [{ field: `domain.accounts[${i}].id`, message: checked.error.issues[0]!.message }];
  });
}

/**
 * On an import, every counter the emulator goes on from (key ids, generation seqs, sequential id numbers) leaves room
 * for the ids created after it (MAX_IMPORTED_COUNTER), so the export of what follows imports back.
 */
export function headroomProblems(s: DomainSnapshot, origin: RestoreOrigin): FieldProblem[] {
  if (origin !== 'import') return [];
  const problems: FieldProblem[] = [];
  const check = (field: string, value: number | undefined) => {
    if (value !== undefined && value > MAX_IMPORTED_COUNTER)
      problems.push({ field: `domain.${field}`, message: `${IMPORTED_COUNTER_RULE} (got ${value})` });
  };
  for (const [i, k] of s.keys.entries()) check(`keys[${i}].id`, k.id);
  s.generations.forEach((g, i) => {
    check(`generations[${i}].seq`, g.seq);
    check(`generations[${i}].id`, idNumber(g.id));
    check(`generations[${i}].requestId`, idNumber(g.requestId));
  });
  for (const [i, u] of s.uploads.entries()) check(`uploads[${i}].id`, idNumber(u.id));
  return problems;
}
