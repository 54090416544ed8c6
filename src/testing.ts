// The one test-only entry point: reach an emulator's runtime, or build one with middleware in front. Not in the package exports.
import type { RequestHandler } from 'express';
import { compositionExtras, readEnvironment } from './cli/environment.js';
import type { EmulatorOptions } from './emulator-options.js';
import type { Runtime } from './domain/runtime.js';
import { composeEmulator } from './emulator.js';
import type { Emulator } from './emulator-types.js';

// Only emulators made here are known, and a WeakMap lets each go with its emulator: nothing is shared between them.
const runtimes = new WeakMap<Emulator, Runtime>();

/** The runtime behind an emulator: `runtimeOf(emulator).context()` is the live domain state (ledger, stores, clock). */
export function runtimeOf(emulator: Emulator): Runtime {
  const runtime = runtimes.get(emulator);
  if (!runtime) throw new Error('runtimeOf() needs an emulator made by createEmulatorWith() (src/testing.ts).');
  return runtime;
}

/** createEmulatorApp() with `first` in front of every other middleware (the contract checker), its runtime known. */
export function createEmulatorWith(options: EmulatorOptions, first: RequestHandler[] = []): Emulator {
  const environment = readEnvironment();
  const withFfmpeg =
    options.ffmpegPath === undefined && environment.ffmpegPath
      ? { ...options, ffmpegPath: environment.ffmpegPath }
      : options;
  const { emulator, runtime } = composeEmulator(withFfmpeg, { ...compositionExtras(environment), first });
  runtimes.set(emulator, runtime);
  return emulator;
}
