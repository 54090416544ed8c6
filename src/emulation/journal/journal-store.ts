// The request journal: every /v1/media request with its answer, for test assertions (like WireMock's /__admin/requests).
import * as z from 'zod';
import { MAX_COUNTER } from '../../domain/counters.js';
import { LAST_INSTANT_MS } from '../../domain/durations.js';
import { utf8Length } from '../../http/answers.js';
import type { journalQuery } from '../inputs.js';
import { entryBytes } from './entry-bytes.js';

/**
 * GET /_emulator/journal's query as parsed: `path` exact or a prefix ending in `*`, `status` such as 503 or a class
 * such as 5xx (0 for exchanges that got no HTTP answer), `since` an instant, `limit` the most recent N (oldest first).
 */
type JournalFilter = z.output<typeof journalQuery>;

/** Enough for any test run; the oldest entries go first when it fills, so a long-running emulator stays bounded. */
export const JOURNAL_CAPACITY = 10_000;
/**
 * What the entries may add up to as GET /_emulator/journal lists them (entry-bytes.ts): 10,000 ordinary entries take
 * about 2.6 MB, so the count binds first; entries with long paths, queries or keys (a client picks their length) go
 * by their size instead.
 */
export const JOURNAL_BYTE_BUDGET = 4 * 1024 * 1024;
const TRIM_BATCH = 1_000;
/** Each body is cut here, and only the newest BODY_WINDOW entries keep theirs: at most ~4 MB of bodies per emulator. */
export const BODY_CAP = 4096;
export const BODY_WINDOW = 500;
/** An entry's texts (path, query, Idempotency-Key, content types, fault reason) are cut here: a client picks their length. */
export const JOURNAL_TEXT_CAP = 1024;
/** The members of an entry that only the newest BODY_WINDOW entries keep. */
export const JOURNAL_BODIES = ['requestBody', 'responseBody'] as const;

const text = z.string().max(JOURNAL_TEXT_CAP, `must be at most ${JOURNAL_TEXT_CAP} characters, as recording cuts it`);
const optionalText = text.nullable().default(null);
const counter = z.int().min(0).max(MAX_COUNTER);

const capturedBodySchema = z.object({
  contentType: text.nullable(),
  /** Size of the whole body in bytes. */
  bytes: z.int().min(0),
  /** The first BODY_CAP bytes as UTF-8 text. */
  text: z.string().max(BODY_CAP, `must be at most ${BODY_CAP} characters, as recording cuts a body`),
  truncated: z.boolean(),
});
const capturedBody = capturedBodySchema.nullable().default(null);

/**
 * One entry, as recording writes it and an import is checked with (journal-schema.ts): every member typed and cut as
 * recording cuts it, so an imported entry reads like a recorded one. Unknown members are dropped.
 */
export const recordedEntrySchema = z.object({
  id: counter.min(1),
  /** Emulator clock when the request arrived (ms). */
  at: z.number().min(0).max(LAST_INSTANT_MS, 'must be a time from 1970 to 9999 (ms since the epoch)'),
  method: z.string().regex(/^[A-Z-]{1,32}$/, 'must be an HTTP method such as GET'),
  path: text,
  /** The query string as sent, without the leading `?`. */
  query: text.default(''),
  keyId: counter.min(1).nullable().default(null),
  idempotencyKey: optionalText,
  /** The status the emulator produced; 0 when no HTTP answer was produced at all (reset, empty response, hang). */
  status: z.int().min(0).max(999),
  /** Wall-clock time from arrival until the exchange ended. */
  latencyMs: z.number().min(0).max(LAST_INSTANT_MS).default(0),
  faultId: optionalText,
  /** Why the fault rule matched, in words ("method POST · route … · 3rd match (after 2)"). */
  faultReason: optionalText,
  /** The generation a submission created or replayed. */
  generationId: optionalText,
  /** Bodies as the emulator read and wrote them, cut at BODY_CAP bytes; kept only on the newest BODY_WINDOW entries. */
  requestBody: capturedBody,
  responseBody: capturedBody,
});

export type CapturedBody = z.output<typeof capturedBodySchema>;
type Entry = z.output<typeof recordedEntrySchema>;
/** Members recording may leave out (and an entry kept before they existed lacks). */
type Optional = 'faultReason' | 'query' | 'generationId' | 'requestBody' | 'responseBody';
export type JournalEntry = Omit<Entry, Optional> & Partial<Pick<Entry, Optional>>;

/** The first BODY_CAP bytes of a body, marked when cut. */
export function captureBody(data: Uint8Array | string, contentType: string | null): CapturedBody {
  // Most bodies are short JSON text: kept as they are, with no round trip through a Buffer on every request.
  if (typeof data === 'string') {
    const bytes = utf8Length(data);
    if (bytes <= BODY_CAP) return { contentType, bytes, text: data, truncated: false };
  }
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  const truncated = bytes.length > BODY_CAP;
  return {
    contentType,
    bytes: bytes.length,
    text: new TextDecoder().decode(truncated ? bytes.subarray(0, BODY_CAP) : bytes),
    truncated,
  };
}

/** A status such as 503 or a class such as 5xx: journalQuery refused anything else before the journal reads it. */
function statusMatcher(status: string | number): (s: number) => boolean {
  const text = String(status).toLowerCase();
  return text.endsWith('xx') ? (s) => Math.floor(s / 100) === Number(text[0]) : (s) => s === Number(text);
}

export class Journal {
  private entries: JournalEntry[] = [];
  /** What each entry adds to the list (entryBytes), beside it. */
  private costs: number[] = [];
  /** Where the visible entries start: the ones before it are dropped with the next trim. */
  private start = 0;
  /** The cost of the visible entries. */
  private bytes = 0;
  private seq = 0;

  constructor(
    private readonly capacity = JOURNAL_CAPACITY,
    private readonly budget = JOURNAL_BYTE_BUDGET,
  ) {}

  record(entry: Omit<JournalEntry, 'id'>): JournalEntry {
    // The new key first: on Node 20's V8, `{ ...entry, id }` gives every entry its own hidden class and descriptor array
    // (~450 bytes each, 4.5 MB at capacity, measured); `{ id, ...entry }` shares one class among all entries.
    const full: JournalEntry = { id: ++this.seq, ...entry };
    this.entries.push(full);
    this.add(entryBytes(entry));
    const old = this.entries[this.entries.length - 1 - BODY_WINDOW];
    if (old && (old.requestBody || old.responseBody)) {
      old.requestBody = null;
      old.responseBody = null;
    }
    this.evict();
    return full;
  }

  private add(cost: number) {
    this.costs.push(cost);
    this.bytes += cost;
  }

  /** The oldest entries leave the view while there are too many or they weigh too much; the newest always stays. */
  private evict() {
    const last = this.entries.length - 1;
    while (this.start < last && (last + 1 - this.start > this.capacity || this.bytes > this.budget))
      this.bytes -= this.costs[this.start++];
    // Trim in batches: moving the whole array on every request cost several percent of every route.
    if (this.start >= TRIM_BATCH) {
      this.entries.splice(0, this.start);
      this.costs.splice(0, this.start);
      this.start = 0;
    }
  }

  /** The entries in view; up to TRIM_BATCH older ones may still sit in the array until the next trim. */
  private visible(): JournalEntry[] {
    return this.start > 0 ? this.entries.slice(this.start) : this.entries;
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
        (filter.fault_id === undefined || e.faultId === filter.fault_id),
    );
    return filter.limit === undefined ? found : found.slice(Math.max(0, found.length - filter.limit));
  }

  get(id: number): JournalEntry | undefined {
    return this.visible().find((e) => e.id === id);
  }

  clear() {
    this.entries = [];
    this.costs = [];
    this.start = 0;
    this.bytes = 0;
  }

  get size(): number {
    return this.entries.length - this.start;
  }

  /** What the visible entries add to the list, in bytes (entry-bytes.ts). */
  get byteSize(): number {
    return this.bytes;
  }

  /** The last id handed out, and the oldest id still visible (0 when empty): the store of record's marks. */
  get lastId(): number {
    return this.seq;
  }

  get firstId(): number {
    return this.entries[this.start]?.id ?? 0;
  }

  /** Entries after `id`, oldest first (ids only grow, so a binary search finds where they start). */
  after(id: number): JournalEntry[] {
    let lo = this.start;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid].id <= id) lo = mid + 1;
      else hi = mid;
    }
    return this.entries.slice(lo);
  }

  snapshot(): { seq: number; entries: JournalEntry[] } {
    return { seq: this.seq, entries: this.visible().map((e) => ({ ...e })) };
  }

  /** Takes a snapshot's entries; past the capacity or the budget (a store written by another version) the oldest go. */
  restore(snapshot: { seq: number; entries: JournalEntry[] }) {
    const bodiesFrom = snapshot.entries.length - BODY_WINDOW;
    this.clear();
    // Bodies stay bounded after a restore too: an older entry keeps its fields, not the bodies it was recorded with.
    this.entries = snapshot.entries.map((e, i) =>
      i < bodiesFrom && (e.requestBody || e.responseBody) ? { ...e, requestBody: null, responseBody: null } : { ...e },
    );
    for (const e of this.entries) this.add(entryBytes(e));
    this.evict();
    // Ids only grow, so the last entry holds the largest (no spread: a long array would overflow the call stack).
    this.seq = Math.max(snapshot.seq, this.entries[this.entries.length - 1]?.id ?? 0);
  }
}
