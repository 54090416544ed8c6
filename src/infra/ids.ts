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

/**
 * The sequences' counters, how many times they have been moved, and what both kinds of ids do alike. Classes, not
 * objects of closures: every world (each sandbox) holds one, and methods on a prototype cost a world nothing.
 */
abstract class Counters implements IdGenerator {
  readonly values = new Map<string, number>();
  changes = 0;

  abstract next(prefix: IdPrefix): string;
  abstract nextInt(scope: string): number;
  abstract peekInt(scope: string): number;
  abstract skipPast(prefix: IdPrefix, n: number): void;
  abstract skipPastInt(scope: string, n: number): void;

  counters() {
    return Object.fromEntries(this.values);
  }

  moves() {
    return this.changes;
  }

  resume(saved: Record<string, number>) {
    for (const [key, n] of Object.entries(saved)) if (Number.isSafeInteger(n)) skip(this, key, n);
  }
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
class RandomIds extends Counters {
  constructor(private readonly now: () => number) {
    super();
  }

  // A join, not a template string: nanoid builds the id a character at a time, a rope of cons strings (~300 bytes) that
  // V8 keeps until something hashes it. Ledger ids never are, one per charge: ~3 MB per 10,000 generations.
  next(prefix: IdPrefix) {
    return [prefix, '_', timeStem(this.now()), randomTail()].join('');
  }
  nextInt(scope: string) {
    return bump(this, scope);
  }
  peekInt(scope: string) {
    return (this.values.get(scope) ?? 0) + 1;
  }
  skipPast() {}
  skipPastInt(scope: string, n: number) {
    skip(this, scope, n);
  }
}

export const createRandomIds = (now: () => number = Date.now): IdGenerator => new RandomIds(now);

/** Ids like gen_000001: the same sequence on every run, so snapshots and logs compare. */
class SequentialIds extends Counters {
  next(prefix: IdPrefix) {
    return `${prefix}_${String(bump(this, prefix)).padStart(6, '0')}`;
  }
  nextInt(scope: string) {
    return bump(this, `int:${scope}`);
  }
  peekInt(scope: string) {
    return (this.values.get(`int:${scope}`) ?? 0) + 1;
  }
  skipPast(prefix: IdPrefix, n: number) {
    skip(this, prefix, n);
  }
  skipPastInt(scope: string, n: number) {
    skip(this, `int:${scope}`, n);
  }
}

export const createSequentialIds = (): IdGenerator => new SequentialIds();

function bump(counters: Counters, key: string): number {
  const value = (counters.values.get(key) ?? 0) + 1;
  counters.values.set(key, value);
  counters.changes += 1;
  return value;
}

function skip(counters: Counters, key: string, n: number) {
  counters.values.set(key, Math.max(counters.values.get(key) ?? 0, n));
  counters.changes += 1;
}
