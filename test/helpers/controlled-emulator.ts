// Shared setup for control-plane tests: a contract-checked emulator with fixture renders, its control client and an API client.
import type { Control } from '../../src/index.js';
import type { EmulatorOptions } from '../../src/emulator-options.js';
import { client, makeEmulator } from './emulator.js';

/** The cheapest model (4 credits an image) renders fastest; tests that care about price say so. */
export const CHEAP_MODEL = 'still-sketch-v1';
export const CHEAP_PRICE = 4;

export function controlled(options: EmulatorOptions = {}) {
  const emulator = makeEmulator({ ffmpegPath: false, ...options });
  const control = emulator.control as Control;
  return { emulator, control, api: client(emulator) };
}

export const submission = (overrides: Record<string, unknown> = {}) => ({
  model_slug: CHEAP_MODEL,
  prompt: 'a lighthouse at dusk',
  max_credits: 100,
  ...overrides,
});

/** Idempotency keys are at least 8 characters. */
export const idem = (n: number | string) => `idem-key-${n}`;
