// Property: random operations interleaved on two sandboxes of one emulator give each the answers a single-world
// emulator gives for that sandbox's operations alone (the model), so nothing of one sandbox reaches the other.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/index.js';
import { createCheckedEmulator } from '../helpers/contract.js';
import { PARAMETERS, TIMEOUT } from './runs.js';

const OPTIONS = { seed: 3, timing: 'manual', clockStart: '2026-04-01T00:00:00.000Z', ffmpegPath: false } as const;
const MODELS = ['still-sketch-v1', 'motion-lite-v1'];

type Op =
  | { kind: 'submit'; model: number; idem: number; credits: number }
  | { kind: 'advance'; seconds: number }
  | { kind: 'balance'; set: number }
  | { kind: 'fault' }
  | { kind: 'clearFaults' }
  | { kind: 'reset' };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('submit' as const),
      model: fc.nat(1),
      idem: fc.nat(3),
      credits: fc.constantFrom(5, 50, 5000),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 120 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('balance' as const), set: fc.nat(200) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'fault' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'clearFaults' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reset' as const }) },
);

/** Where one world's requests go: the base URL, its API key, and the prefix of its control paths. */
interface Target {
  url: string;
  apiKey: string;
  plane: string;
}

const open: Emulator[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
});

async function started() {
  const emulator = createCheckedEmulator(OPTIONS);
  open.push(emulator);
  const { url } = await emulator.start({ port: 0 });
  return { emulator, url };
}

async function send(
  target: Target,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${target.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${target.apiKey}`, 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

/** Runs one operation and gives what a client of that world observes, without hosts or links. */
async function apply(target: Target, o: Op): Promise<unknown> {
  const plane = (path: string) => `${target.plane}${path}`;
  switch (o.kind) {
    case 'submit': {
      const answer = await send(
        target,
        'POST',
        '/v1/media/generations',
        { model_slug: MODELS[o.model], prompt: 'two worlds', max_credits: o.credits },
        { 'Idempotency-Key': `idem-${o.idem}` },
      );
      const generation = answer.body?.generation as Record<string, unknown> | undefined;
      return [answer.status, generation?.id ?? (answer.body?.error as { code?: string } | undefined)?.code];
    }
    case 'advance':
      return (await send(target, 'POST', plane('/clock/advance'), { by: o.seconds * 1000 })).status;
    case 'balance':
      return (await send(target, 'POST', plane('/accounts/acct_local/balance'), { set: o.set })).body;
    case 'fault':
      return (
        await send(target, 'POST', plane('/faults'), {
          match: { method: 'get', route: '/v1/media/usage' },
          action: { type: 'status', status: 503 },
        })
      ).status;
    case 'clearFaults':
      return (await send(target, 'DELETE', plane('/faults'))).status;
    case 'reset':
      return (await send(target, 'POST', plane('/reset'))).status;
  }
}

/** What the world looks like from outside: its list, its balance (or the fault that hides it), its clock. */
async function observe(target: Target) {
  const list = await send(target, 'GET', '/v1/media/generations?limit=100');
  const usage = await send(target, 'GET', '/v1/media/usage');
  const clock = await send(target, 'GET', `${target.plane}/clock`);
  expect(list.status).toBe(200);
  const page = (list.body?.generations ?? []) as Record<string, unknown>[];
  const generations = page.map((g) => [g.id, g.status, g.credits]);
  return { generations, usage: [usage.status, usage.body?.wallet_balance], clock: clock.body?.now };
}

describe('two sandboxes under interleaved operations', () => {
  it('each answers as a single-world emulator given its operations alone', { timeout: TIMEOUT(120_000) }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.boolean(), op), { minLength: 1, maxLength: 12 }), async (steps) => {
        const shared = await started();
        const targets: Target[] = [];
        for (let i = 0; i < 2; i++) {
          const sandbox = await shared.emulator.control.createSandbox({ label: `world ${i}` });
          targets.push({ url: shared.url, apiKey: sandbox.apiKey, plane: `/_emulator/sandboxes/${sandbox.id}` });
        }
        const models: Target[] = [];
        for (let i = 0; i < 2; i++) {
          const alone = await started();
          models.push({ url: alone.url, apiKey: alone.emulator.apiKey, plane: '/_emulator' });
        }
        for (const [second, each] of steps) {
          const i = second ? 1 : 0;
          expect(await apply(targets[i], each)).toEqual(await apply(models[i], each));
        }
        for (let i = 0; i < 2; i++) expect(await observe(targets[i])).toEqual(await observe(models[i]));
        await Promise.all(open.splice(0).map((e) => e.close()));
      }),
      PARAMETERS(12),
    );
  });
});
