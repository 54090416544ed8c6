// The old JSON --state-file read for migration: its shape checked, its log's records of the snapshot's epoch applied
// (ledger by seq, generations/idempotency/uploads by key, whole sections replaced), a torn last line tolerated.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DomainError } from '../../../../src/domain/errors.js';
import { readLegacyStateFile } from '../../../../src/store/node/legacy-state-file.js';
import { STATE_FORMAT } from '../../../../src/store/state-document.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function stateFile(snapshot: unknown, log?: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'legacy-state-'));
  folders.push(folder);
  const path = join(folder, 'state.json');
  writeFileSync(path, typeof snapshot === 'string' ? snapshot : JSON.stringify(snapshot));
  if (log !== undefined) writeFileSync(`${path}.log`, log);
  return path;
}

const entry = (seq: number, amount: number) => ({ seq, amount });
const snapshotAt = (epoch: number) => ({
  format: STATE_FORMAT,
  persistence: { epoch },
  domain: {
    clock: { now: 1 },
    ledger: [entry(1, 100), entry(2, -10)],
    generations: [
      { id: 'gen_a', status: 'queued' },
      { id: 'gen_b', status: 'queued' },
    ],
    idempotency: [['key-1', { first: true }]],
    uploads: [{ id: 'up_a', size: 1 }],
    accounts: [{ id: 'acct_old' }],
    keys: [{ id: 'key_old' }],
    timing: { speed: 1 },
    balances: { acct_old: 90 },
  },
  control: { seed: 7, latency: 0 },
});
const lines = (...records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

function refusal(path: string): DomainError {
  try {
    readLegacyStateFile(path);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('readLegacyStateFile accepted the file');
}

describe('readLegacyStateFile', () => {
  it('returns the snapshot as written, without its persistence epoch, when there is no log', () => {
    const state = readLegacyStateFile(stateFile(snapshotAt(0)));
    expect(state).not.toHaveProperty('persistence');
    expect(state.domain.ledger).toEqual([entry(1, 100), entry(2, -10)]);
    expect((state.domain as { balances?: unknown }).balances).toEqual({ acct_old: 90 });
    expect(state.control).toEqual({ seed: 7, latency: 0 });
  });

  it("applies the log's records of the snapshot's epoch: new ledger entries by seq, items upserted by key, sections replaced", () => {
    const record = {
      epoch: 3,
      clock: { now: 9 },
      ledger: [entry(2, -10), entry(3, -5), entry(4, 20)],
      generations: [
        { id: 'gen_b', status: 'succeeded' },
        { id: 'gen_c', status: 'queued' },
      ],
      idempotency: [
        ['key-1', { first: false }],
        ['key-2', { second: true }],
      ],
      uploads: [{ id: 'up_b', size: 2 }],
      accounts: [{ id: 'acct_new' }],
      keys: [{ id: 'key_new' }],
      timing: { speed: 4 },
      control: { latency: 50 },
    };
    const state = readLegacyStateFile(stateFile(snapshotAt(3), lines(record)));
    const d = state.domain as unknown as Record<string, unknown>;
    expect(d.clock).toEqual({ now: 9 });
    expect(d.ledger).toEqual([entry(1, 100), entry(2, -10), entry(3, -5), entry(4, 20)]);
    expect(d.generations).toEqual([
      { id: 'gen_a', status: 'queued' },
      { id: 'gen_b', status: 'succeeded' },
      { id: 'gen_c', status: 'queued' },
    ]);
    expect(d.idempotency).toEqual([
      ['key-1', { first: false }],
      ['key-2', { second: true }],
    ]);
    expect(d.uploads).toEqual([
      { id: 'up_a', size: 1 },
      { id: 'up_b', size: 2 },
    ]);
    expect(d.accounts).toEqual([{ id: 'acct_new' }]);
    expect(d.keys).toEqual([{ id: 'key_new' }]);
    expect(d.timing).toEqual({ speed: 4 });
    expect(d.balances).toBeUndefined();
    expect(state.control).toEqual({ seed: 7, latency: 50 });
  });

  it('keeps every section a record leaves out (and empty lists change nothing)', () => {
    const record = { epoch: 0, clock: { now: 2 }, generations: [], idempotency: [], uploads: [] };
    const state = readLegacyStateFile(stateFile(snapshotAt(0), lines(record)));
    const d = state.domain as unknown as Record<string, unknown>;
    expect(d.clock).toEqual({ now: 2 });
    expect(d.ledger).toEqual([entry(1, 100), entry(2, -10)]);
    expect(d.generations).toEqual([
      { id: 'gen_a', status: 'queued' },
      { id: 'gen_b', status: 'queued' },
    ]);
    expect(d.idempotency).toEqual([['key-1', { first: true }]]);
    expect(d.uploads).toEqual([{ id: 'up_a', size: 1 }]);
    expect(d.accounts).toEqual([{ id: 'acct_old' }]);
    expect(d.keys).toEqual([{ id: 'key_old' }]);
    expect(d.timing).toEqual({ speed: 1 });
    expect(state.control).toEqual({ seed: 7, latency: 0 });
  });

  it('counts ledger entries from the highest seq present, even when the snapshot has none or an entry lacks one', () => {
    const snapshot = snapshotAt(1);
    snapshot.domain.ledger = [{ amount: 5 } as never, entry(3, 1)];
    const record = { epoch: 1, clock: { now: 2 }, ledger: [entry(2, 7), entry(3, 1), entry(4, 8)] };
    const state = readLegacyStateFile(stateFile(snapshot, lines(record)));
    expect(state.domain.ledger).toEqual([{ amount: 5 }, entry(3, 1), entry(4, 8)]);

    const empty = snapshotAt(1);
    empty.domain.ledger = [];
    const fromNothing = readLegacyStateFile(stateFile(empty, lines({ epoch: 1, clock: {}, ledger: [entry(1, 3)] })));
    expect(fromNothing.domain.ledger).toEqual([entry(1, 3)]);
  });

  it('skips records of another epoch; a snapshot without an epoch is at epoch 0', () => {
    const stale = { epoch: 1, clock: { now: 99 }, ledger: [entry(9, 1)] };
    const current = { epoch: 2, clock: { now: 5 }, ledger: [entry(3, 1)] };
    const state = readLegacyStateFile(stateFile(snapshotAt(2), lines(stale, current)));
    expect(state.domain.ledger).toEqual([entry(1, 100), entry(2, -10), entry(3, 1)]);
    expect(state.domain.clock).toEqual({ now: 5 });

    const noEpoch: Record<string, unknown> = snapshotAt(0);
    delete noEpoch.persistence;
    const atZero = readLegacyStateFile(stateFile(noEpoch, lines({ epoch: 0, clock: { now: 4 } })));
    expect(atZero.domain.clock).toEqual({ now: 4 });
  });

  it('skips blank lines and a torn last line, but refuses a line that is not JSON before others', () => {
    const torn = `\n  \n${JSON.stringify({ epoch: 0, clock: { now: 3 } })}\n{"epoch": 0, "clo`;
    expect(readLegacyStateFile(stateFile(snapshotAt(0), torn)).domain.clock).toEqual({ now: 3 });
    const tornThenBlank = `${JSON.stringify({ epoch: 0, clock: { now: 6 } })}\n{"epo\n  \n`;
    expect(readLegacyStateFile(stateFile(snapshotAt(0), tornThenBlank)).domain.clock).toEqual({ now: 6 });

    const path = stateFile(
      snapshotAt(0),
      `${JSON.stringify({ epoch: 0, clock: {} })}\nnot json\n{"epoch":0,"clock":{}}\n`,
    );
    const error = refusal(path);
    expect(error.code).toBe('invalid_state');
    expect(error.message).toBe(`${path}.log: line 2 is not JSON.`);
  });

  it('refuses a file that is not JSON, naming the file and the parse error', () => {
    const path = stateFile('{ not json');
    const error = refusal(path);
    expect(error.code).toBe('invalid_state');
    expect(error.message).toMatch(new RegExp(`^State file ${path} is not valid JSON: \\S`));
  });

  it.each([
    ['an array', [STATE_FORMAT]],
    ['null', null],
    ['another format', { ...snapshotAt(0), format: 'something-else' }],
    ['a domain that is not an object', { ...snapshotAt(0), domain: [] }],
    ['a domain that is null', { ...snapshotAt(0), domain: null }],
    ['a control that is not an object', { ...snapshotAt(0), control: 'x' }],
    ['a control that is an array', { ...snapshotAt(0), control: [] }],
  ])('refuses JSON that is not a state of this emulator: %s', (_what, value) => {
    const path = stateFile(JSON.stringify(value));
    const error = refusal(path);
    expect(error.code).toBe('invalid_state');
    expect(error.message).toBe(
      `State file ${path} is JSON but not a state of this emulator (an object with "format": "${STATE_FORMAT}", "domain" and "control", as GET /_emulator/state exports it); it was left untouched. Choose another --state-file.`,
    );
  });
});
