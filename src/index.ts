// Public entry points for tests and tools: createApp for supertest, startEmulator for a real socket.
import type { Express } from 'express';
import { compositionExtras, readEnvironment } from './cli/environment.js';
import type { EmulatorOptions } from './config.js';
import type { Control } from './emulation/client.js';
import { loadStateFile, saveStateFile } from './emulation/state/state-file.js';
import { createEmulator, type Emulator } from './emulator.js';

export interface StartOptions extends EmulatorOptions {
  /** Default 0: a free port chosen by the OS. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface RunningEmulator {
  url: string;
  apiKey: string;
  emulator: Emulator;
  /** The typed control client: faults, clock, balances, keys, scenarios, journal, reset (docs/control-plane.md). */
  control: Control;
  /** Stops the server; with `stateFile`, writes the state there first. */
  close(): Promise<void>;
}

/** A full emulator whose Express app needs no socket (supertest). Call `emulator.close()` when done. */
export function createEmulatorApp(options: EmulatorOptions = {}): Emulator {
  // FFMPEG_PATH and PATH are honoured in-process too: the one environment setting a test machine may need.
  const environment = readEnvironment();
  return createEmulator(
    options.ffmpegPath === undefined && environment.ffmpegPath
      ? { ...options, ffmpegPath: environment.ffmpegPath }
      : options,
    compositionExtras(environment),
  );
}

/** The Express app alone, for supertest: `request(createApp())`. */
export function createApp(options: EmulatorOptions = {}): Express {
  return createEmulatorApp(options).app;
}

export async function startEmulator(options: StartOptions = {}): Promise<RunningEmulator> {
  const { port = 0, host = '127.0.0.1', ...rest } = options;
  const emulator = createEmulatorApp(rest);
  const { control } = emulator;
  if (rest.stateFile) await loadStateFile(control, rest.stateFile);
  // Listen at once: renders wait for the renderer by themselves, and `emulator.ready` tells when ffmpeg was found.
  const { url } = await emulator.listen(port, host);
  control.setBaseUrl(rest.publicBaseUrl ?? url);
  const close = async () => {
    if (rest.stateFile) await saveStateFile(control, rest.stateFile);
    await emulator.close();
  };
  return { url, apiKey: emulator.apiKey, emulator, control, close };
}

export type { Emulator } from './emulator.js';
export type { Control } from './emulation/client.js';
export type { EmulatorState } from './emulation/state/emulator-state.js';
export type { FaultRuleInput } from './emulation/faults/fault-schema.js';
export type { ScenarioInput } from './emulation/scenarios/scenario-schema.js';
export type { EmulatorOptions } from './config.js';
export { DEFAULT_API_KEY, DEFAULT_BALANCE, DEFAULT_PORT } from './config.js';
export type { TimingProfile } from './domain/timing.js';
