// The one test-only entry point: reach an emulator's runtime, or build one with middleware in front. Not in the package exports.
import type { RouteEntry } from './http/front-door.js';
import type { ExchangeHooks, Pipeline } from './http/pipeline.js';
import { compositionExtras, readEnvironment } from './cli/environment.js';
import type { EmulatorOptions } from './emulator-options.js';
import type { Runtime } from './domain/runtime.js';
import { type CompositionExtras, composeEmulator } from './emulator.js';
import type { Emulator } from './emulator-types.js';

// Only emulators made here are known, and a WeakMap lets each go with its emulator: nothing is shared between them.
const runtimes = new WeakMap<Emulator, Runtime>();
const tables = new WeakMap<Emulator, readonly RouteEntry[]>();
const pipelines = new WeakMap<Emulator, Pipeline>();

/** The runtime behind an emulator: `runtimeOf(emulator).context()` is the live domain state (ledger, stores, clock). */
export function runtimeOf(emulator: Emulator): Runtime {
  const runtime = runtimes.get(emulator);
  if (!runtime) throw new Error('runtimeOf() needs an emulator made by createEmulatorWith() (src/testing.ts).');
  return runtime;
}

/** createEmulatorApp() with `first` before every plugin's hooks (the contract checker), its runtime known. */
export function createEmulatorWith(
  options: EmulatorOptions,
  first: ExchangeHooks[] = [],
  extras: Pick<CompositionExtras, 'realNow'> = {},
): Emulator {
  const environment = readEnvironment();
  const withFfmpeg =
    options.ffmpegPath === undefined && environment.ffmpegPath
      ? { ...options, ffmpegPath: environment.ffmpegPath }
      : options;
  const { emulator, runtime, routes, pipeline } = composeEmulator(withFfmpeg, {
    ...compositionExtras(environment),
    first,
    ...extras,
  });
  runtimes.set(emulator, runtime);
  tables.set(emulator, routes);
  pipelines.set(emulator, pipeline);
  return emulator;
}

/** The front door's route table of an emulator made by createEmulatorWith(): every route it resolves, in order. */
export function routesOf(emulator: Emulator): readonly RouteEntry[] {
  const routes = tables.get(emulator);
  if (!routes) throw new Error('routesOf() needs an emulator made by createEmulatorWith() (src/testing.ts).');
  return routes;
}

/** The pipeline behind an emulator made by createEmulatorWith(): what another host (the fetch host of msw) runs. */
export function pipelineOf(emulator: Emulator): Pipeline {
  const pipeline = pipelines.get(emulator);
  if (!pipeline) throw new Error('pipelineOf() needs an emulator made by createEmulatorWith() (src/testing.ts).');
  return pipeline;
}
