// Property: random public and control operations against the CLI with --state-file, kill -9 at a random point, restart: every acknowledged effect is there, no id is issued twice.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY } from '../../src/config.js';
import { type CliProcess, startCli, stopCli } from '../helpers/cli-process.js';

const auth = { Authorization: `Bearer ${DEFAULT_API_KEY}`, 'Content-Type': 'application/json' };
const scratch = mkdtempSync(join(tmpdir(), 'crash-property-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Op =
  | { kind: 'submit'; key: number }
  | { kind: 'topUp'; add: number }
  | { kind: 'createKey' }
  | { kind: 'advance'; ms: number }
  | { kind: 'fault' }
  | { kind: 'reset' };

const operation: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('submit' as const), key: fc.integer({ min: 0, max: 5 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('topUp' as const), add: fc.integer({ min: 1, max: 500 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'createKey' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 30_000 }) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'fault' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reset' as const }) },
);

async function send(url: string, op: Op, n: number): Promise<Response> {
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${url}${path}`, { method: 'POST', headers: { ...auth, ...headers }, body: JSON.stringify(body) });
  switch (op.kind) {
    case 'submit':
      return post(
        '/v1/media/generations',
        { model_slug: 'motion-lite-v1', prompt: `crash ${op.key}`, max_credits: 1000 },
        { 'Idempotency-Key': `crash-key-${op.key}` },
      );
    case 'topUp':
      return post('/_emulator/accounts/acct_local/balance', { add: op.add });
    case 'createKey':
      return post('/_emulator/keys', {});
    case 'advance':
      return post('/_emulator/clock/advance', { by: op.ms });
    case 'fault':
      return post('/_emulator/faults', { id: `rule-${n}`, action: { type: 'stall' } });
    case 'reset':
      return post('/_emulator/reset', {});
  }
}

interface Exported {
  domain: {
    generations: { id: string; status: string }[];
    ledger: { seq: number; type: string; amount: number }[];
    keys: { id: number; secret: string; revokedAt: number | null }[];
    idempotency: [string, { generationId: string }][];
  };
  control: { faults: { id: string }[] };
}

const exported = async (url: string) => (await (await fetch(`${url}/_emulator/state`)).json()) as Exported;

/** What must survive: an in-flight generation restarts from pending (its renders died with the process). */
function project(s: Exported) {
  return {
    generations: s.domain.generations.map((g) => `${g.id} ${g.status === 'running' ? 'pending' : g.status}`).sort(),
    ledger: s.domain.ledger.map((e) => `${e.seq} ${e.type} ${e.amount}`),
    keys: s.domain.keys.map((k) => `${k.id} ${k.secret} ${k.revokedAt}`),
    idempotency: s.domain.idempotency.map(([k, v]) => `${k} ${v.generationId}`).sort(),
    faults: s.control.faults.map((f) => f.id),
  };
}

/** Everything acknowledged before the crash is there; at most the one operation in flight was added to it. */
function expectContains(after: ReturnType<typeof project>, before: ReturnType<typeof project>, reset: boolean) {
  // The reset in flight went through: back to the seed (its one funding entry, no generation).
  if (reset && after.generations.length === 0 && after.ledger.length === 1) return;
  expect(after.ledger.slice(0, before.ledger.length)).toEqual(before.ledger);
  expect(after.keys.slice(0, before.keys.length)).toEqual(before.keys);
  for (const g of before.generations) {
    const [id, status] = g.split(' ');
    const now = after.generations.find((a) => a.startsWith(`${id} `));
    expect(now, `generation ${id}`).toBeDefined();
    if (status === 'completed' || status === 'failed') expect(now).toBe(g);
  }
  for (const entry of before.idempotency) expect(after.idempotency).toContain(entry);
  for (const id of before.faults) expect(after.faults).toContain(id);
}

describe('kill -9 at a random point with --state-file', () => {
  it('keeps every acknowledged effect and never issues an id twice', { timeout: 240_000 }, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(operation, { minLength: 1, maxLength: 10 }),
        fc.nat(),
        fc.integer({ min: 0, max: 40 }),
        async (ops, at, turns) => {
          const file = join(scratch, `state-${++run}.db`);
          const args = ['--timing', 'manual', '--state-file', file];
          const crashAt = at % (ops.length + 1);
          let cli: CliProcess | undefined = await startCli(args);
          try {
            let before = project(await exported(cli.url));
            const issued = new Set<string>(before.generations.map((g) => g.split(' ')[0]));
            for (let i = 0; i < crashAt; i++) {
              const res = await send(cli.url, ops[i], i);
              expect(res.status, JSON.stringify(ops[i])).toBeLessThan(300);
              before = project(await exported(cli.url));
              for (const g of before.generations) issued.add(g.split(' ')[0]);
            }
            const inFlight = crashAt < ops.length ? send(cli.url, ops[crashAt], crashAt).catch(() => undefined) : null;
            // The kill lands a random number of event-loop turns into the request: before, during or after its commit.
            for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
            await stopCli(cli, 'SIGKILL');
            await inFlight;
            cli = await startCli(args);
            const after = project(await exported(cli.url));
            expectContains(after, before, ops[crashAt]?.kind === 'reset');
            expect(new Set(after.generations.map((g) => g.split(' ')[0])).size).toBe(after.generations.length);
            for (const g of after.generations) issued.add(g.split(' ')[0]);
            const fresh = await send(cli.url, { kind: 'submit', key: 99 }, 0);
            expect(fresh.status).toBe(202);
            const id = ((await fresh.json()) as { generation: { id: string } }).generation.id;
            expect(issued.has(id), `id ${id} issued twice`).toBe(false);
          } finally {
            if (cli) await stopCli(cli, 'SIGKILL');
          }
        },
      ),
      { numRuns: 5 },
    );
  });
});
