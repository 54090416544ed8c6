// Idempotency records per API key: the canonical body fingerprint and the response to replay, kept for a window.
import { DomainError } from './errors.js';

export interface StoredResponse {
  status: number;
  body: Record<string, unknown>;
}

export interface IdempotencyEntry {
  fingerprint: string;
  createdAt: number;
  generationId: string;
  response: StoredResponse;
}

export type IdempotencyLookup = { kind: 'new' } | { kind: 'replay'; response: StoredResponse; generationId: string };

/** Where committed records live: the store of record, read on demand (SQL behind it, in infra). */
export interface IdempotencySource {
  get(key: string): IdempotencyEntry | undefined;
  all(): [string, IdempotencyEntry][];
}

/**
 * Until a source is attached every record stays in the heap, swept when its window ends. Once attached, the heap
 * holds only the records not committed yet; the store of record drops the expired ones in its transactions.
 */
export class IdempotencyStore {
  // A Map keeps insertion order, which is creation order, so expiry sweeps from the front.
  private readonly entries = new Map<string, IdempotencyEntry>();
  private source?: IdempotencySource;

  constructor(private readonly windowMs: number) {}

  /** From now on committed records live in `source`, which holds every record so far. */
  attach(source: IdempotencySource) {
    this.source = source;
    this.entries.clear();
  }

  /** The latest creation time a record may have and still be expired at `now`. */
  expiredUpTo(now: number): number {
    return now - this.windowMs;
  }

  /** The store of record holds these keys' records now: the heap lets go of them. */
  committed(keys: string[]) {
    if (!this.source) return;
    for (const key of keys) this.entries.delete(key);
  }

  private find(key: string, now: number): IdempotencyEntry | undefined {
    const entry = this.entries.get(key) ?? this.source?.get(key);
    return entry && entry.createdAt + this.windowMs > now ? entry : undefined;
  }

  private sweep(now: number) {
    for (const [key, entry] of this.entries) {
      if (entry.createdAt + this.windowMs > now) break;
      this.entries.delete(key);
    }
  }

  lookup(apiKeyId: number, idempotencyKey: string, fingerprint: string, now: number): IdempotencyLookup {
    this.sweep(now);
    const entry = this.find(`${apiKeyId}\u0000${idempotencyKey}`, now);
    if (!entry) return { kind: 'new' };
    if (entry.fingerprint !== fingerprint)
      throw new DomainError(
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request body. Use a new key for a new request, or resend the original body to get the original result.',
      );
    return { kind: 'replay', response: entry.response, generationId: entry.generationId };
  }

  record(
    apiKeyId: number,
    idempotencyKey: string,
    fingerprint: string,
    generationId: string,
    response: StoredResponse,
    now: number,
  ) {
    const key = `${apiKeyId}\u0000${idempotencyKey}`;
    this.entries.set(key, { fingerprint, createdAt: now, generationId, response });
  }

  /** How many uncommitted() would give, without building the list. */
  get uncommittedCount(): number {
    return this.source ? this.entries.size : 0;
  }

  /** The records not committed yet (with a source; none without, where the store of record takes the whole state). */
  uncommitted(): [string, IdempotencyEntry][] {
    return this.source ? [...this.entries] : [];
  }

  /** Every record, stored or in the heap (tests, audits). */
  get size(): number {
    return this.source ? this.snapshot().length : this.entries.size;
  }

  snapshot(): [string, IdempotencyEntry][] {
    if (!this.source) return [...this.entries];
    const stored = new Map(this.source.all());
    for (const [key, entry] of this.entries) stored.set(key, entry);
    return [...stored];
  }

  restore(entries: [string, IdempotencyEntry][]) {
    this.entries.clear();
    for (const [k, v] of entries) this.entries.set(k, v);
  }
}
