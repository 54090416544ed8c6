// Idempotency records per API key: the canonical body fingerprint and the response to replay, kept for a window.
import { DomainError } from './errors.js';

export interface StoredResponse {
  status: number;
  body: Record<string, unknown>;
}

interface Entry {
  fingerprint: string;
  createdAt: number;
  generationId: string;
  response: StoredResponse;
}

export type IdempotencyLookup = { kind: 'new' } | { kind: 'replay'; response: StoredResponse; generationId: string };

export class IdempotencyStore {
  // A Map keeps insertion order, which is creation order, so expiry sweeps from the front.
  private readonly entries = new Map<string, Entry>();
  /** Keys recorded (true) or expired (false) since the store of record last took them. */
  private changed = new Map<string, boolean>();

  constructor(private readonly windowMs: number) {}

  private sweep(now: number) {
    for (const [key, entry] of this.entries) {
      if (entry.createdAt + this.windowMs > now) break;
      this.entries.delete(key);
      this.changed.set(key, false);
    }
  }

  lookup(apiKeyId: number, idempotencyKey: string, fingerprint: string, now: number): IdempotencyLookup {
    this.sweep(now);
    const entry = this.entries.get(`${apiKeyId}\u0000${idempotencyKey}`);
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
    this.changed.set(key, true);
  }

  /** What was recorded (with its entry) or expired (undefined) since the last call. */
  takeChanged(): [string, Entry | undefined][] {
    const out = [...this.changed].map(([key, present]): [string, Entry | undefined] => [
      key,
      present ? this.entries.get(key) : undefined,
    ]);
    this.changed = new Map();
    return out;
  }

  get size(): number {
    return this.entries.size;
  }

  snapshot(): [string, Entry][] {
    return [...this.entries];
  }

  restore(entries: [string, Entry][]) {
    this.entries.clear();
    for (const [k, v] of entries) this.entries.set(k, v);
    this.changed = new Map();
  }
}
