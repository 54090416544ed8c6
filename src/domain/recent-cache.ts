// A bounded least-recently-used cache over a Map (insertion order is recency): the heap keeps a fixed number of records.
const NONE: unique symbol = Symbol('no newest key');

export class RecentCache<K, V> {
  /** Made at the first set: each world holds three caches, and an idle sandbox's stay empty. */
  private entries?: Map<K, V>;
  /** The most recently used key: read again (a client polling one generation), it needs no moving to the end. */
  private newest: K | typeof NONE = NONE;

  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const entries = this.entries;
    const value = entries?.get(key);
    if (entries === undefined || value === undefined) return undefined;
    if (key !== this.newest) {
      entries.delete(key);
      entries.set(key, value);
      this.newest = key;
    }
    return value;
  }

  set(key: K, value: V) {
    this.entries ??= new Map();
    this.entries.delete(key);
    this.entries.set(key, value);
    this.newest = key;
    if (this.entries.size > this.capacity) this.delete(this.entries.keys().next().value as K);
  }

  delete(key: K) {
    this.entries?.delete(key);
    if (key === this.newest) this.newest = NONE;
  }

  clear() {
    this.entries?.clear();
    this.newest = NONE;
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }
}
