// The one test-only entry point: reach an emulator's runtime, or build one with middleware in front. Not in the package exports.
import type { RequestHandler } from 'express';
import { compositionExtras, readEnvironment } from './cli/environment.js';
import type { EmulatorOptions } from './emulator-options.js';
import type { Runtime } from './domain/runtime.js';
import { createEmulator, type Emulator, RUNTIME } from './emulator.js';

/** The runtime behind an emulator: `runtimeOf(emulator).context()` is the live domain state (ledger, stores, clock). */
export function runtimeOf(emulator: Emulator): Runtime {
  const runtime = (emulator as Emulator & { [RUNTIME]?: Runtime })[RUNTIME];
  if (!runtime) throw new Error('runtimeOf() needs an emulator made by createEmulator() or createEmulatorApp().');
  return runtime;
}

/** createEmulatorApp() with `first` in front of every other middleware (the contract checker of the test suite). */
export function createEmulatorWith(options: EmulatorOptions, first: RequestHandler[]): Emulator {
  const environment = readEnvironment();
  const withFfmpeg =
    options.ffmpegPath === undefined && environment.ffmpegPath
      ? { ...options, ffmpegPath: environment.ffmpegPath }
      : options;
  return createEmulator(withFfmpeg, { ...compositionExtras(environment), first });
}
