// Identifier generation: prefixed, time-ordered nanoid ids by default, sequential ids when a seed asks for repeatable runs.
import { customAlphabet } from 'nanoid';

export type IdPrefix = 'gen' | 'req' | 'upl' | 'key' | 'led' | 'flt' | 'acct';

export interface IdGenerator {
  next(prefix: IdPrefix): string;
  /** Integer ids for API keys, which the spec types as integers. */
  nextInt(scope: string): number;
  /** What nextInt(scope) would give now, without taking it (a dry run predicting the ids it would hand out). */
  peekInt(scope: string): number;
  /** The next sequential id of this prefix is past `n` (ids imported from an export); random ids ignore it. */
  skipPast(prefix: IdPrefix, n: number): void;
  /** The next integer id of this scope is past `n`. */
  skipPastInt(scope: string, n: number): void;
  /** Where each sequence stands, for the store of record to keep; `skipPast`/`skipPastInt` take them back. */
  counters(): Record<string, number>;
  /**
   * Grows whenever a counter may have moved: the store of record asks on every request whether anything changed, and
   * building and comparing `counters()` each time cost about a microsecond.
   */
  moves(): number;
  /** Continues every sequence of `counters` (as `counters()` gave them) past its value. */
  resume(counters: Record<string, number>): void;
}

/** The sequences' counters, and how many times they have been moved. */
class Counters {
  readonly values = new Map<string, number>();
  moves = 0;
}

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';
const randomTail = customAlphabet(BASE36, 12);

/** A millisecond in 8 base-36 characters (enough until 2059; past it the stem wraps, and ids stay unique by their tail). */
const timeStem = (ms: number) => ms.toString(36).padStart(8, '0').slice(-8);

/**
 * Random ids: 20 characters, a time stem then 12 random ones (62 bits), so ids made later sort later. The store's
 * indexes on ids then grow at their right edge, as its rows by seq do; with 20 random characters every new id landed on
 * an index page of its own (SQLite's time per submission 28 µs, against 21 µs now: bench/RESULTS.md). The stem is from
 * wall time, not the emulator's clock: a frozen clock would give every id the same stem.
 */
export function createRandomIds(now: () => number = Date.now): IdGenerator {
  const counters = new Counters();
  return {
    // A join, not a template string: nanoid builds the id a character at a time, a rope of cons strings (~300 bytes) that
    // V8 keeps until something hashes it. Ledger ids never are, one per charge: ~3 MB per 10,000 generations.
    next: (prefix) => [prefix, '_', timeStem(now()), randomTail()].join(''),
    nextInt: (scope) => bump(counters, scope),
    peekInt: (scope) => (counters.values.get(scope) ?? 0) + 1,
    skipPast: () => undefined,
    skipPastInt: (scope, n) => skip(counters, scope, n),
    counters: () => Object.fromEntries(counters.values),
    moves: () => counters.moves,
    resume: (saved) => resume(counters, saved),
  };
}

/** Ids like gen_000001: the same sequence on every run, so snapshots and logs compare. */
export function createSequentialIds(): IdGenerator {
  const counters = new Counters();
  return {
    next: (prefix) => `${prefix}_${String(bump(counters, prefix)).padStart(6, '0')}`,
    nextInt: (scope) => bump(counters, `int:${scope}`),
    peekInt: (scope) => (counters.values.get(`int:${scope}`) ?? 0) + 1,
    skipPast: (prefix, n) => skip(counters, prefix, n),
    skipPastInt: (scope, n) => skip(counters, `int:${scope}`, n),
    counters: () => Object.fromEntries(counters.values),
    moves: () => counters.moves,
    resume: (saved) => resume(counters, saved),
  };
}

function bump(counters: Counters, key: string): number {
  const value = (counters.values.get(key) ?? 0) + 1;
  counters.values.set(key, value);
  counters.moves += 1;
  return value;
}

function skip(counters: Counters, key: string, n: number) {
  counters.values.set(key, Math.max(counters.values.get(key) ?? 0, n));
  counters.moves += 1;
}

function resume(counters: Counters, saved: Record<string, number>) {
  for (const [key, n] of Object.entries(saved)) if (Number.isSafeInteger(n)) skip(counters, key, n);
}
