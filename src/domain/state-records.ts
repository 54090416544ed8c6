// Each record of an imported state is there once (ids, secrets, idempotency keys), and an import brings no more keys or accounts than creating allows.
import { MAX_ACCOUNTS, MAX_KEYS } from './accounts.js';
import type { DomainSnapshot } from './domain-snapshot.js';
import type { RestoreOrigin } from './runtime.js';
import type { FieldProblem } from './zod-issues.js';

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
  const n = (value: number) => value.toLocaleString('en-US');
  return [
    {
      field: `domain.${collection}`,
      message: `${n(count)} ${collection}; an import brings at most ${n(max)} (the bound on creating them): import fewer`,
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
