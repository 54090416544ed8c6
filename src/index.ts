// Public entry points for tests and tools: createApp for supertest, startEmulator for a real socket.
import type { Express } from 'express';
import type { EmulatorOptions } from './config.js';
import type { Control } from './emulation/client.js';
import { loadStateFile, saveStateFile } from './emulation/state/state-file.js';
import { createEmulator, type Emulator } from './emulator.js';
import { standardExtensions } from './extensions.js';

export interface StartOptions extends EmulatorOptions {
  /** Default 0: a free port chosen by the OS. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

/** An emulator with the standard extensions, so its typed control client is always there. */
export interface ControlledEmulator extends Emulator {
  readonly control: Control;
}

export interface RunningEmulator {
  url: string;
  apiKey: string;
  emulator: Emulator;
  /** The typed control client: faults, clock, balances, keys, scenarios, journal, reset (docs/control-plane.md). Always set by startEmulator. */
  control?: Control;
  /** Stops the server; with `stateFile`, writes the state there first. */
  close(): Promise<void>;
}

/** A full emulator whose Express app needs no socket (supertest). Call `emulator.close()` when done. */
export function createEmulatorApp(options: EmulatorOptions = {}): ControlledEmulator {
  return createEmulator(withEnvironmentDefaults(options), standardExtensions()) as ControlledEmulator;
}

/** The Express app alone, for supertest: `request(createApp())`. */
export function createApp(options: EmulatorOptions = {}): Express {
  return createEmulatorApp(options).app;
}

export async function startEmulator(options: StartOptions = {}): Promise<RunningEmulator & { control: Control }> {
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

/** FFMPEG_PATH is honoured in-process too, as the one environment setting a test machine may need. */
function withEnvironmentDefaults(options: EmulatorOptions): EmulatorOptions {
  const fromEnv = process.env.FFMPEG_PATH;
  return options.ffmpegPath === undefined && fromEnv ? { ...options, ffmpegPath: fromEnv } : options;
}

export { createEmulator } from './emulator.js';
export type { Emulator, EmulatorExtensions } from './emulator.js';
export type { Control } from './emulation/client.js';
export type { EmulatorState } from './emulation/state/emulator-state.js';
export type { FaultRuleInput } from './emulation/faults/fault-schema.js';
export type { ScenarioInput } from './emulation/scenarios/scenario-schema.js';
export type { EmulatorOptions } from './config.js';
export { DEFAULT_API_KEY, DEFAULT_BALANCE, DEFAULT_PORT } from './config.js';
export type { TimingProfile } from './domain/timing.js';
