// Property: whatever a client sends, the emulator answers without a 5xx, every answer matches the document, and a refusal never touches the wallet.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/index.js';
import { takeViolations } from '../helpers/contract.js';
import { startSharedEmulator } from '../helpers/emulator.js';
import { rawClient, type RawClient } from '../helpers/raw-http.js';
import { describePlan, mutatedRequests, regressionExamples, serialise, validRequests, type Plan } from './requests.js';
import { PARAMETERS, TIMEOUT } from './runs.js';

let running: RunningEmulator;
let http: RawClient;
/** The emulator's log: an internal error's stack goes there, and into the failure message. */
const log: string[] = [];

beforeAll(async () => {
  // Manual timing: nothing renders, so the runs measure the HTTP layer and the wallet, not ffmpeg.
  running = await startSharedEmulator({ seed: 7, timing: 'manual', ffmpegPath: false, log: (line) => log.push(line) });
  http = rawClient(running.url);
});

afterAll(async () => {
  http.close();
  await running.close();
});

function wallet() {
  const ctx = running.emulator.context();
  return { balance: ctx.ledger.balance(running.emulator.accountId), entries: ctx.ledger.size, generations: ctx.generations.size };
}

/** Every case starts from the seeded state plus one pending generation (gen_000001), so a failure shrinks to one request. */
async function freshState() {
  await running.emulator.reset();
  const res = await http.send({
    method: 'POST',
    path: '/v1/media/generations',
    headers: [
      ['Authorization', `Bearer ${running.apiKey}`],
      ['Content-Type', 'application/json'],
      ['Idempotency-Key', 'fuzz-setup-0001'],
    ],
    body: JSON.stringify({ model_slug: 'motion-lite-v1', prompt: 'setup', max_credits: 1000 }),
  });
  if (res.status !== 202) throw new Error(`setup submission answered ${res.status}`);
}

/** Sends one request and checks the three promises; a thrown error makes fast-check shrink the request. */
async function exercise(p: Plan) {
  await freshState();
  const before = wallet();
  const wire = serialise(p);
  const res = await http.send(wire);
  // The contract middleware checks on 'finish'; let it run before reading what it found.
  await new Promise((resolve) => setImmediate(resolve));
  const violations = takeViolations();
  const where = `${describePlan(p)}\n  -> ${res.status} ${res.body.subarray(0, 300).toString('utf8')}`;
  if (res.status >= 500) throw new Error(`a 5xx answer:\n  ${where}\n  emulator log: ${log.slice(-2).join('\n')}`);
  if (violations.length) throw new Error(`a contract violation:\n  ${where}\n${violations.join('\n')}`);
  if (res.status >= 400) {
    const after = wallet();
    if (after.balance !== before.balance || after.entries !== before.entries || after.generations !== before.generations)
      throw new Error(`a refused request changed the wallet (${JSON.stringify(before)} -> ${JSON.stringify(after)}):\n  ${where}`);
  }
}

describe('requests generated from the OpenAPI schemas', () => {
  it('are answered without 5xx, as documented, and refusals leave the wallet alone', { timeout: TIMEOUT(30_000) }, async () => {
    await fc.assert(fc.asyncProperty(validRequests(running.apiKey), exercise), PARAMETERS(300));
    expect(takeViolations()).toEqual([]);
  });
});

describe('mutated requests (wrong types, nulls, huge/empty/Unicode strings, deep nesting, extra members, repeated query parameters, odd headers and content types)', () => {
  it('are answered without 5xx, as documented, and refusals leave the wallet alone', { timeout: TIMEOUT(30_000) }, async () => {
    const examples = regressionExamples(running.apiKey).map((p): [Plan] => [p]);
    await fc.assert(fc.asyncProperty(mutatedRequests(running.apiKey), exercise), { ...PARAMETERS(500), examples });
    expect(takeViolations()).toEqual([]);
  });
});
