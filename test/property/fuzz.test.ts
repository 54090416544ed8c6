// Property: whatever a client sends, the emulator answers without a 5xx, every answer matches the document, and a refusal never touches the wallet.
import { isRealService500 } from '../helpers/real-500.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/index.js';
import { takeViolations } from '../helpers/contract.js';
import { startSharedEmulator } from '../helpers/emulator.js';
import { rawClient, type RawClient } from '../helpers/raw-http.js';
import { describePlan, mutatedRequests, regressionExamples, serialise, validRequests, type Plan } from './requests.js';
import { PARAMETERS, TIMEOUT } from './runs.js';
import { runtimeOf } from '../../src/testing.js';

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
  const ctx = runtimeOf(running.emulator).context();
  return {
    balance: ctx.ledger.balance(running.emulator.accountId),
    entries: ctx.ledger.size,
    generations: ctx.generations.size,
  };
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
  // Exempt, and only this: the real service's own plain 500 for inputs Python cannot echo (docs/proof.md).
  const real500 = isRealService500(
    { status: res.status, contentType: String(res.headers['content-type']), body: res.body.toString('utf8') },
    wire.body,
  );
  if (res.status >= 500 && !real500)
    throw new Error(`a 5xx answer:\n  ${where}\n  emulator log: ${log.slice(-2).join('\n')}`);
  if (violations.length && !real500) throw new Error(`a contract violation:\n  ${where}\n${violations.join('\n')}`);
  if (res.status >= 400) {
    const after = wallet();
    if (
      after.balance !== before.balance ||
      after.entries !== before.entries ||
      after.generations !== before.generations
    )
      throw new Error(
        `a refused request changed the wallet (${JSON.stringify(before)} -> ${JSON.stringify(after)}):\n  ${where}`,
      );
  }
}

describe('requests generated from the OpenAPI schemas', () => {
  it('are answered without 5xx, as documented, and refusals leave the wallet alone', {
    timeout: TIMEOUT(30_000),
  }, async () => {
    await fc.assert(fc.asyncProperty(validRequests(running.apiKey), exercise), PARAMETERS(300));
    expect(takeViolations()).toEqual([]);
  });
});

describe('mutated requests (wrong types, nulls, huge/empty/Unicode strings, deep nesting, extra members, repeated query parameters, odd headers and content types)', () => {
  it('are answered without 5xx, as documented, and refusals leave the wallet alone', {
    timeout: TIMEOUT(30_000),
  }, async () => {
    const examples = regressionExamples(running.apiKey).map((p): [Plan] => [p]);
    await fc.assert(fc.asyncProperty(mutatedRequests(running.apiKey), exercise), { ...PARAMETERS(500), examples });
    expect(takeViolations()).toEqual([]);
  });
});

describe('the emulator clock near the end of representable time (the service writes four-digit years: 9999-12-31 is the last day)', () => {
  it('refuses an advance that would pass it, and keeps answering afterwards', async () => {
    await freshState();
    const END = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    const tenYears = 10 * 365 * 86_400_000;
    // Each control call may move at most 100 years; their sum is what runs out. Jump close to the end in-process.
    await running.emulator.advance(END - runtimeOf(running.emulator).context().clock.now() - tenYears);
    const advance = await http.send({
      method: 'POST',
      path: '/_emulator/clock/advance',
      headers: [['Content-Type', 'application/json']],
      body: JSON.stringify({ by: '36500d' }),
    });
    await new Promise((resolve) => setImmediate(resolve));
    const usage = await http.send({
      method: 'GET',
      path: '/v1/media/usage',
      headers: [['Authorization', `Bearer ${running.apiKey}`]],
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(advance.status, `advance answered ${advance.body.toString('utf8')}`).toBeLessThan(500);
    expect(usage.status, `usage answered ${usage.body.toString('utf8')}`).toBe(200);
    expect(takeViolations()).toEqual([]);
  });
});
