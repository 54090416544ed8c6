// The JSON snapshot + append-only log that --state-file wrote before SQLite: read once, to migrate it.
import { existsSync, readFileSync } from 'node:fs';
import type { Account, ApiKey } from '../../domain/accounts.js';
import type { DomainContext } from '../../domain/context.js';
import type { Generation } from '../../domain/generation.js';
import type { LedgerEntry } from '../../domain/ledger.js';
import type { Upload } from '../../domain/uploads.js';
import { DomainError } from '../../domain/errors.js';
import type { StateDocument } from '../../wiring/kept-state.js';
import { STATE_FORMAT } from '../state-document.js';

type IdempotencyEntry = ReturnType<DomainContext['idempotency']['snapshot']>[number];

interface DeltaRecord {
  epoch: number;
  clock: StateDocument['domain']['clock'];
  ledger?: LedgerEntry[];
  generations?: Generation[];
  idempotency?: IdempotencyEntry[];
  uploads?: Upload[];
  accounts?: Account[];
  keys?: ApiKey[];
  timing?: StateDocument['domain']['timing'];
  /** The kept values as they stood (the logs were never in the old log). */
  control?: Record<string, unknown>;
}

function upsert<T>(list: T[], items: T[] | undefined, key: (item: T) => string): T[] {
  if (!items?.length) return list;
  const byKey = new Map(list.map((item) => [key(item), item]));
  for (const item of items) byKey.set(key(item), item);
  return [...byKey.values()];
}

/** Applies one record to a snapshot in place. Ledger entries already present (by seq) are skipped, so it is idempotent. */
function applyDelta(state: StateDocument, record: DeltaRecord): void {
  const d = state.domain;
  d.clock = record.clock;
  const lastSeq = d.ledger.reduce((max, e) => Math.max(max, e.seq ?? 0), 0);
  for (const e of record.ledger ?? []) if (e.seq > lastSeq) d.ledger.push(e);
  d.generations = upsert(d.generations, record.generations, (g) => g.id);
  d.idempotency = upsert(d.idempotency, record.idempotency, ([k]) => k);
  d.uploads = upsert(d.uploads, record.uploads, (u) => u.id);
  if (record.accounts) d.accounts = record.accounts;
  if (record.keys) d.keys = record.keys;
  if (record.timing) d.timing = record.timing;
  if (record.control) Object.assign(state.control, record.control);
  // Balances are recomputed from the ledger on import; a stale exported figure would only fail the check.
  delete d.balances;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The old format wrote what GET /_emulator/state exports: an object with its "format", the domain and the control
 * sections. Any other JSON (a package.json given by mistake) is refused before anything is built from it.
 */
function checkShape(path: string, value: unknown): asserts value is StateDocument {
  if (isObject(value) && value.format === STATE_FORMAT && isObject(value.domain) && isObject(value.control)) return;
  throw new DomainError(
    'invalid_state',
    `State file ${path} is JSON but not a state of this emulator (an object with "format": "${STATE_FORMAT}", "domain" and "control", as GET /_emulator/state exports it); it was left untouched. Choose another --state-file.`,
  );
}

/** The snapshot with every record of its epoch in the log applied: the state the old format last acknowledged. */
export function readLegacyStateFile(path: string): StateDocument {
  const logPath = `${path}.log`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new DomainError('invalid_state', `State file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  checkShape(path, parsed);
  const snapshot: StateDocument & { persistence?: { epoch: number } } = parsed;
  const at = snapshot.persistence?.epoch ?? 0;
  delete snapshot.persistence;
  if (!existsSync(logPath)) return snapshot;
  const lines = readFileSync(logPath, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    let record: DeltaRecord;
    try {
      record = JSON.parse(line) as DeltaRecord;
    } catch {
      // Only the last line can be torn (kill -9 mid-write); its response was never sent.
      if (lines.slice(i + 1).some((l) => l.trim()))
        throw new DomainError('invalid_state', `${logPath}: line ${i + 1} is not JSON.`);
      return;
    }
    if (record.epoch === at) applyDelta(snapshot, record);
  });
  return snapshot;
}
