// Numbers read from an import or a state file are range-checked before they are used: ids, seqs, counters, the clock
// and balances. A hostile value is refused with 422 invalid_state naming the field (exit 2 at start), never a hang or
// a 500, and the emulator keeps its state; large legal values import at once (no loop counts up to them).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../src/index.js';
import { MAX_COUNTER, MAX_IMPORTED_COUNTER } from '../../src/domain/counters.js';
import { client, MODEL_A, makeEmulator } from '../helpers/emulator.js';
import { freshTmp, leftUnder, startCli } from '../helpers/cli-process.js';

type State = Record<string, any>;

const scratch = mkdtempSync(join(tmpdir(), 'sec-imports-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** An emulator with one completed generation, and its export. */
async function exported(): Promise<{ emulator: Emulator; state: State }> {
  const emulator = makeEmulator({ ffmpegPath: false });
  const submitted = await client(emulator).submit(
    { model_slug: MODEL_A, prompt: 'a quiet lake', max_credits: 1000 },
    'idem-key-1',
  );
  expect(submitted.status).toBe(202);
  const state = (await request(emulator.app).get('/_emulator/state')).body as State;
  return { emulator, state };
}

const HOSTILE: [string, (s: State) => void, string][] = [
  ['a key id of 2^53-1', (s) => (s.domain.keys[0].id = 2 ** 53 - 1), 'domain.keys[0].id'],
  ['a generation seq of 1e15', (s) => (s.domain.generations[0].seq = 1e15), 'domain.generations[0].seq'],
  [
    'a seeded id gen_999999999999',
    (s) => (s.domain.generations[0].id = 'gen_999999999999'),
    'domain.generations[0].id',
  ],
  ['a clock at 1e300', (s) => (s.domain.clock.now = 1e300), 'domain.clock.now'],
  ['a clock before 1970', (s) => (s.domain.clock.now = -1), 'domain.clock.now'],
  [
    'a clock offset of 1e300',
    (s) => Object.assign(s.domain.clock, { frozen: false, offset_ms: 1e300 }),
    'domain.clock.offset_ms',
  ],
  ['a ledger date in the year 10000', (s) => (s.domain.ledger[0].at = 253402300800000), 'domain.ledger[0].at'],
  [
    'a generation timer of 1e300 ms',
    (s) => (s.domain.generations[0].plan.pendingMs = 1e300),
    'domain.generations[0].plan.pendingMs',
  ],
  [
    'a balance past 2^53',
    (s) => {
      const funding = s.domain.ledger.find((e: State) => e.type === 'funding');
      s.domain.ledger.push({ ...funding, amount: Number.MAX_SAFE_INTEGER });
      delete s.domain.balances;
    },
    'domain.ledger[',
  ],
  ['a journal seq of 1e300', (s) => (s.control.journal.seq = 1e300), 'control.journal.seq'],
];

/** `count` keys like `first`, each with its own id and secret. */
function manyKeys(first: State, count: number): State[] {
  return Array.from({ length: count }, (_, i) => ({ ...first, id: i + 1, secret: `sk-media-imported-${i + 1}` }));
}

describe('an import with a number out of range', () => {
  it.each(HOSTILE)(
    'refuses %s with 422 invalid_state naming the field and keeps the state',
    async (_what, edit, field) => {
      const { emulator, state } = await exported();
      const hostile = structuredClone(state);
      edit(hostile);
      const res = await request(emulator.app).put('/_emulator/state').send(hostile);
      expect([res.status, res.body.error?.code]).toEqual([422, 'invalid_state']);
      expect(res.body.error.message).toContain(field);
      // Nothing changed, and everything still answers.
      const after = await request(emulator.app).get('/_emulator/state');
      expect(after.status).toBe(200);
      expect(after.body.domain).toEqual(state.domain);
      expect((await request(emulator.app).get('/_emulator/health')).status).toBe(200);
      const next = await client(emulator).submit(
        { model_slug: MODEL_A, prompt: 'after', max_credits: 1000 },
        'idem-key-2',
      );
      expect(next.status).toBe(202);
    },
  );

  it('imports the largest accepted ids and seqs at once, continues after them, and its export loads from the store', async () => {
    const { emulator, state } = await exported();
    const big = structuredClone(state);
    big.domain.keys[0].id = MAX_IMPORTED_COUNTER;
    for (const e of big.domain.ledger) if (e.keyId !== undefined) e.keyId = MAX_IMPORTED_COUNTER;
    for (const g of big.domain.generations) g.apiKeyId = MAX_IMPORTED_COUNTER;
    big.domain.generations[0].seq = MAX_IMPORTED_COUNTER;
    big.control.journal.seq = MAX_IMPORTED_COUNTER;
    expect((await request(emulator.app).put('/_emulator/state').send(big)).status).toBe(200);
    const created = await request(emulator.app).post('/_emulator/keys').send({});
    expect([created.status, created.body.key?.id]).toEqual([201, MAX_IMPORTED_COUNTER + 1]);
    const api = client(emulator);
    const next = await api.submit({ model_slug: MODEL_A, prompt: 'after the edge', max_credits: 1000 }, 'idem-edge');
    expect(next.status).toBe(202);
    const again = (await request(emulator.app).get('/_emulator/state')).body;
    expect(Math.max(...again.domain.generations.map((g: State) => g.seq))).toBe(MAX_IMPORTED_COUNTER + 1);
    expect(again.control.journal.seq).toBeGreaterThan(MAX_IMPORTED_COUNTER);
    // What follows an import at the edge is what the emulator wrote: a start from the store loads it.
    const stateFile = join(mkdtempSync(join(scratch, 'edge-')), 'state.json');
    writeFileSync(stateFile, JSON.stringify(again));
    const started = await startEmulator({ stateFile, ffmpegPath: false });
    try {
      expect((await request(started.url).get('/_emulator/keys')).body.keys.map((k: State) => k.id)).toContain(
        MAX_IMPORTED_COUNTER + 1,
      );
    } finally {
      await started.close();
    }
  });

  it.each([
    ['domain.keys[0].id', (s: State) => (s.domain.keys[0].id = MAX_IMPORTED_COUNTER + 1)],
    ['domain.generations[0].seq', (s: State) => (s.domain.generations[0].seq = MAX_IMPORTED_COUNTER + 1)],
    ['domain.generations[0].id', (s: State) => (s.domain.generations[0].id = `gen_${MAX_IMPORTED_COUNTER + 1}`)],
    ['control.journal.seq', (s: State) => (s.control.journal.seq = MAX_COUNTER)],
  ])('refuses %s past the import bound, saying what an import accepts', async (field, edit) => {
    const { emulator, state } = await exported();
    const edge = structuredClone(state);
    edit(edge);
    const res = await request(emulator.app).put('/_emulator/state').send(edge);
    expect([res.status, res.body.error?.code]).toEqual([422, 'invalid_state']);
    expect(res.body.error.problems).toContainEqual({
      field,
      message: expect.stringContaining('must be a whole number from 0 to 2,130,706,431 on an import'),
    });
  });

  it('stops creating key ids at 2^31-1 on a state file that holds 2^31-2', async () => {
    const { state } = await exported();
    const stored = structuredClone(state);
    stored.domain.keys[0].id = MAX_COUNTER - 1;
    for (const e of stored.domain.ledger) if (e.keyId !== undefined) e.keyId = MAX_COUNTER - 1;
    for (const g of stored.domain.generations) g.apiKeyId = MAX_COUNTER - 1;
    const stateFile = join(mkdtempSync(join(scratch, 'key-edge-')), 'state.json');
    writeFileSync(stateFile, JSON.stringify(stored));
    const started = await startEmulator({ stateFile, ffmpegPath: false });
    try {
      const created = await request(started.url).post('/_emulator/keys').send({});
      expect([created.status, created.body.key?.id]).toEqual([201, MAX_COUNTER]);
      const past = await request(started.url).post('/_emulator/keys').send({});
      expect([past.status, past.body.error?.code]).toEqual([409, 'limit_reached']);
      expect(past.body.error.message).toContain('API key ids have reached 2147483647');
    } finally {
      await started.close();
    }
  });

  it('refuses an import past the key bound and keeps the state; a state file holding more still loads whole', async () => {
    // The bound on creating keys holds for an import too (a console refresh over 100,000 keys took a second); a state
    // kept before the bound existed may hold more, and a start from it loads it whole.
    const { emulator, state } = await exported();
    const many = structuredClone(state);
    many.domain.keys = manyKeys(state.domain.keys[0], 10_001);
    for (const e of many.domain.ledger) if (e.keyId !== undefined) e.keyId = 1;
    for (const g of many.domain.generations) g.apiKeyId = 1;
    const refused = await request(emulator.app).put('/_emulator/state').send(many);
    expect([refused.status, refused.body.error?.code]).toEqual([422, 'invalid_state']);
    expect(refused.body.error.problems).toEqual([
      {
        field: 'domain.keys',
        message: '10,001 keys; an import brings at most 10,000 (the bound on creating them): import fewer',
      },
    ]);
    expect((await request(emulator.app).get('/_emulator/state')).body.domain).toEqual(state.domain);

    const stateFile = join(mkdtempSync(join(scratch, 'many-keys-')), 'state.json');
    writeFileSync(stateFile, JSON.stringify(many));
    const started = await startEmulator({ stateFile, ffmpegPath: false });
    try {
      expect((await request(started.url).get('/_emulator/keys')).body.keys).toHaveLength(10_001);
      const created = await request(started.url).post('/_emulator/keys').send({});
      expect([created.status, created.body.error?.code]).toEqual([409, 'limit_reached']);
      expect(created.body.error.message).toBe(
        'This emulator already holds 10,000 API keys, its maximum; reset the emulator, or import a state with fewer.',
      );
    } finally {
      await started.close();
    }
  });

  it('draws no secret for a key it refuses: with a seed, what is drawn next is the same', async () => {
    const { state } = await exported();
    const stored = structuredClone(state);
    stored.domain.keys[0].id = MAX_COUNTER;
    for (const e of stored.domain.ledger) if (e.keyId !== undefined) e.keyId = MAX_COUNTER;
    for (const g of stored.domain.generations) g.apiKeyId = MAX_COUNTER;
    /** Whether each of 24 reads meets a fault rule that fires with probability 0.5 from the seeded random. */
    const draws = async (refusedFirst: boolean) => {
      const stateFile = join(mkdtempSync(join(scratch, 'key-draws-')), 'state.json');
      writeFileSync(stateFile, JSON.stringify(stored));
      const started = await startEmulator({ stateFile, ffmpegPath: false, seed: 7 });
      try {
        const http = request(started.url);
        if (refusedFirst) {
          const refused = await http.post('/_emulator/keys').send({});
          expect([refused.status, refused.body.error?.code]).toEqual([409, 'limit_reached']);
        }
        const rule = {
          match: { route: '/v1/media/models' },
          probability: 0.5,
          action: { type: 'status', status: 503 },
        };
        expect((await http.post('/_emulator/faults').send(rule)).status).toBe(201);
        const statuses: number[] = [];
        for (let i = 0; i < 24; i++)
          statuses.push((await http.get('/v1/media/models').set('Authorization', `Bearer ${started.apiKey}`)).status);
        return statuses;
      } finally {
        await started.close();
      }
    };
    const plain = await draws(false);
    expect(plain).toContain(503);
    expect(await draws(true)).toEqual(plain);
  });

  it('refuses an import past the account bound naming it', async () => {
    const { emulator, state } = await exported();
    const many = structuredClone(state);
    const first = state.domain.accounts[0];
    many.domain.accounts = [first, ...Array.from({ length: 10_000 }, (_, i) => ({ ...first, id: `acct_${i}` }))];
    delete many.domain.balances;
    const refused = await request(emulator.app).put('/_emulator/state').send(many);
    expect([refused.status, refused.body.error?.code]).toEqual([422, 'invalid_state']);
    expect(refused.body.error.message).toContain('domain.accounts: 10,001 accounts; an import brings at most 10,000');
  });
});

describe('a state file with a number out of range', () => {
  it('is refused at start with exit 2 and one line naming the field', { timeout: 60_000 }, async () => {
    const { state } = await exported();
    const hostile = structuredClone(state);
    hostile.domain.keys[0].id = 2 ** 53 - 1;
    const file = join(scratch, 'hostile.json');
    writeFileSync(file, JSON.stringify(hostile));
    const tmp = freshTmp();
    const failure = await startCli(['--state-file', file, '--seed', '1'], { tmp }).then(
      () => new Error('the CLI started'),
      (error: Error) => error,
    );
    expect(failure.message).toMatch(/exited with 2/);
    expect(failure.message).toContain('domain.keys[0].id');
    expect(failure.message).not.toMatch(/\n\s+at /);
    expect(leftUnder(tmp)).toEqual([]);
  });
});
