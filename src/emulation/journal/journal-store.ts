// The request journal: every /v1/media request with its answer, for test assertions (like WireMock's /__admin/requests).
import { DomainError } from '../../domain/errors.js';

export interface JournalEntry {
  id: number;
  /** Emulator clock when the request arrived (ms). */
  at: number;
  method: string;
  path: string;
  keyId: number | null;
  idempotencyKey: string | null;
  /** The status the emulator produced; 0 when no HTTP answer was produced at all (reset, empty response, hang). */
  status: number;
  /** Wall-clock time from arrival until the exchange ended. */
  latencyMs: number;
  faultId: string | null;
}

export interface JournalFilter {
  /** Exact path, or a prefix ending in `*` (`/v1/media/generations*`). */
  path?: string;
  method?: string;
  /** `503`, or a class such as `5xx`; `0` for exchanges that got no HTTP answer. */
  status?: string | number;
  /** Entries at or after this instant (ms). */
  since?: number;
  faultId?: string;
  /** The most recent N, still oldest first. */
  limit?: number;
}

/** Enough for any test run; the oldest entries go first when it fills, so a long-running emulator stays bounded. */
export const JOURNAL_CAPACITY = 10_000;
const TRIM_BATCH = 1_000;

function statusMatcher(status: string | number): (s: number) => boolean {
  const text = String(status).trim().toLowerCase();
  if (/^\d{1,3}$/.test(text)) return (s) => s === Number(text);
  if (/^[1-5]xx$/.test(text)) return (s) => Math.floor(s / 100) === Number(text[0]);
  throw new DomainError(
    'invalid_control_request',
    `status must be a status such as 503 or a class such as 5xx, got "${status}".`,
  );
}

export class Journal {
  private entries: JournalEntry[] = [];
  private seq = 0;

  constructor(private readonly capacity = JOURNAL_CAPACITY) {}

  record(entry: Omit<JournalEntry, 'id'>): JournalEntry {
    const full = { ...entry, id: ++this.seq };
    this.entries.push(full);
    // Trim in batches: moving the whole array on every request cost several percent of every route.
    if (this.entries.length >= this.capacity + TRIM_BATCH) this.entries.splice(0, this.entries.length - this.capacity);
    return full;
  }

  /** The newest `capacity` entries; up to TRIM_BATCH older ones may still sit in the array until the next trim. */
  private visible(): JournalEntry[] {
    return this.entries.length > this.capacity ? this.entries.slice(this.entries.length - this.capacity) : this.entries;
  }

  list(filter: JournalFilter = {}): JournalEntry[] {
    const status = filter.status === undefined || filter.status === '' ? undefined : statusMatcher(filter.status);
    const path = filter.path;
    const prefix = path?.endsWith('*') ? path.slice(0, -1) : undefined;
    const found = this.visible().filter(
      (e) =>
        (path === undefined || (prefix !== undefined ? e.path.startsWith(prefix) : e.path === path)) &&
        (filter.method === undefined || e.method === filter.method.toUpperCase()) &&
        (status === undefined || status(e.status)) &&
        (filter.since === undefined || e.at >= filter.since) &&
        (filter.faultId === undefined || e.faultId === filter.faultId),
    );
    return filter.limit === undefined ? found : found.slice(Math.max(0, found.length - filter.limit));
  }

  clear() {
    this.entries = [];
  }

  get size(): number {
    return Math.min(this.entries.length, this.capacity);
  }

  snapshot(): { seq: number; entries: JournalEntry[] } {
    return { seq: this.seq, entries: this.visible().map((e) => ({ ...e })) };
  }

  restore(snapshot: { seq: number; entries: JournalEntry[] }) {
    this.entries = snapshot.entries.map((e) => ({ ...e }));
    this.seq = Math.max(snapshot.seq, ...this.entries.map((e) => e.id), 0);
  }
}
