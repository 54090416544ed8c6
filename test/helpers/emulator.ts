// The one way tests create emulators: isolated instances, a bearer-authenticated supertest client, cleanup after each test.
import request from 'supertest';
import { afterEach } from 'vitest';
import type { Control, Emulator, EmulatorOptions, RunningEmulator, StartOptions } from '../../src/index.js';
import { createCheckedEmulator } from './contract.js';
import { answerOrigin, mswHostOn } from './msw-host.js';

const open = new Set<Emulator>();

afterEach(async () => {
  const closing = [...open].map((e) => e.close());
  open.clear();
  await Promise.all(closing);
});

/**
 * A fresh emulator with a frozen clock and sequential ids unless the test says otherwise.
 * Every response it sends is checked against the OpenAPI document (test/helpers/contract.ts).
 */
export function makeEmulator(options: EmulatorOptions = {}): Emulator {
  const emulator = createCheckedEmulator({ seed: 1, timing: 'manual', ...options });
  open.add(emulator);
  return emulator;
}

/** startEmulator() for tests: the same defaults (none added), on a loopback port, contract-checked and closed after the test. */
export async function startTestEmulator(options: StartOptions = {}): Promise<RunningEmulator & { control: Control }> {
  const running = await startSharedEmulator(options);
  open.add(running.emulator);
  return running;
}

/** Like startTestEmulator, for a beforeAll: it outlives each test, so the caller closes it (afterAll). */
export async function startSharedEmulator(options: StartOptions = {}): Promise<RunningEmulator & { control: Control }> {
  const { port = 0, host = '127.0.0.1', ...rest } = options;
  const emulator = createCheckedEmulator(rest);
  const control = emulator.control as Control;
  // The one start-up sequence startEmulator and the CLI use, then the renderer, so a test starts from a settled state.
  const { url } = await emulator.start({ port, host });
  await emulator.ready;
  // Under the msw host (vitest.msw.config.ts) the listening URL is answered by the pack before any socket is reached.
  if (mswHostOn) answerOrigin(emulator, url);
  control.setBaseUrl(rest.publicBaseUrl ?? url);
  return { url, apiKey: emulator.apiKey, emulator, control, close: emulator.close };
}

export function client(emulator: Emulator, apiKey: string = emulator.apiKey) {
  const auth = { Authorization: `Bearer ${apiKey}` };
  const agent = request(emulator.app);
  return {
    get: (path: string) => agent.get(path).set(auth),
    post: (path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const req = agent.post(path).set(auth).set(headers);
      return body === undefined ? req : req.send(body as object);
    },
    submit: (body: Record<string, unknown>, idempotencyKey: string) =>
      agent.post('/v1/media/generations').set(auth).set('Idempotency-Key', idempotencyKey).send(body),
    raw: agent,
  };
}

export const MODEL_A = 'motion-lite-v1';
export const MODEL_B = 'keyframe-pro-v2';
