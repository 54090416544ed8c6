// Model-based test: random sequences of API and control calls against a small reference model of the wallet and the generations.
// After every step: the ledger sums to the balance, no generation is refunded past its charge, net = charged - refunded,
// states only move forward, and paging the list returns every generation exactly once.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/index.js';
import { takeViolations } from '../helpers/contract.js';
import { startSharedEmulator } from '../helpers/emulator.js';
import { rawClient, type RawClient, type RawResponse } from '../helpers/raw-http.js';
import { BALANCE, expectStatus, modelCommands, RANK, START, type Model, type Status } from './model-commands.js';
import { PARAMETERS, TIMEOUT } from './runs.js';

let running: RunningEmulator;
let http: RawClient;

beforeAll(async () => {
  running = await startSharedEmulator({
    seed: 3,
    timing: 'manual',
    ffmpegPath: false,
    clockStart: START,
    initialBalance: BALANCE,
  });
  http = rawClient(running.url);
});
afterAll(async () => {
  http.close();
  await running.close();
});

const send = async (
  method: string,
  path: string,
  body?: unknown,
  headers: [string, string][] = [],
  key = running.apiKey,
): Promise<RawResponse> => {
  const res = await http.send({
    method,
    path,
    headers: [
      ['Authorization', `Bearer ${key}`],
      ...(body === undefined || headers.some(([n]) => n === 'Content-Type')
        ? []
        : ([['Content-Type', 'application/json']] as [string, string][])),
      ...headers,
    ],
    body:
      body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });
  await new Promise((resolve) => setImmediate(resolve));
  const violations = takeViolations();
  if (violations.length) throw new Error(`contract violation:\n${violations.join('\n')}`);
  if (res.status >= 500) throw new Error(`${method} ${path} answered ${res.status}: ${res.body.toString('utf8')}`);
  return res;
};

/** Every invariant, against the emulator's own answers. */
async function checkInvariants(m: Model) {
  const usage = (await send('GET', '/v1/media/usage')).json();
  expect(usage.wallet_balance).toBe(m.balance);
  const { entries } = (await send('GET', '/_emulator/ledger')).json() as {
    entries: { type: string; amount: number; generation_id: string | null }[];
  };
  const sum = entries.reduce((s, e) => s + (e.type === 'charge' ? -e.amount : e.amount), 0);
  expect(sum).toBe(m.balance);
  const perGeneration = new Map<string, { charged: number; refunded: number }>();
  for (const e of entries) {
    if (!e.generation_id) continue;
    const t = perGeneration.get(e.generation_id) ?? { charged: 0, refunded: 0 };
    if (e.type === 'charge') t.charged += e.amount;
    if (e.type === 'refund') t.refunded += e.amount;
    perGeneration.set(e.generation_id, t);
  }
  for (const [, t] of perGeneration) expect(t.refunded).toBeLessThanOrEqual(t.charged);
  // Page through with a small limit: every generation exactly once, newest first.
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const res = await send(
      'GET',
      `/v1/media/generations?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expectStatus(res, 200, 'list');
    const body = res.json() as {
      generations: {
        id: string;
        status: Status;
        charged_credits: number;
        refunded_credits: number;
        net_credits: number;
      }[];
      next_cursor: string | null;
    };
    for (const g of body.generations) {
      seen.push(g.id);
      const known = m.generations.find((x) => x.id === g.id);
      if (!known) throw new Error(`the list shows ${g.id}, which the model never accepted`);
      expect(g.net_credits).toBe(g.charged_credits - g.refunded_credits);
      expect({ id: g.id, charged: g.charged_credits, refunded: g.refunded_credits }).toEqual({
        id: known.id,
        charged: known.charged,
        refunded: known.refunded,
      });
      expect(perGeneration.get(g.id)).toEqual({ charged: known.charged, refunded: known.refunded });
      if (RANK[g.status] < RANK[known.status] || (RANK[known.status] === 2 && g.status !== known.status))
        throw new Error(`${g.id} moved back from ${known.status} to ${g.status}`);
      known.status = g.status;
    }
    cursor = body.next_cursor;
    if (!cursor) break;
  }
  expect(new Set(seen).size).toBe(seen.length);
  expect([...seen].sort()).toEqual(m.generations.map((g) => g.id).sort());
}

describe('a reference model of wallet and generations', () => {
  it('agrees with the emulator after every step of random sequences', { timeout: TIMEOUT(60_000) }, async () => {
    const commands = modelCommands({ send, checkInvariants });
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 25 }), async (cmds) => {
        const reset = await send('POST', '/_emulator/reset');
        expectStatus(reset, 200, 'reset');
        const seeded = (await send('GET', '/_emulator/keys')).json().keys[0];
        const model: Model = {
          now: START,
          balance: BALANCE,
          keys: [{ id: seeded.id, secret: seeded.secret, dailyLimit: null }],
          generations: [],
          submitted: new Map(),
          keyDay: new Map(),
          nextIdempotency: 1,
        };
        await fc.asyncModelRun(() => ({ model, real: { http } }), cmds);
      }),
      PARAMETERS(40),
    );
  });
});
