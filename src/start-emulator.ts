// The in-process entry points: createEmulatorApp / createApp for supertest, startEmulator for a real socket.
import { compositionExtras, readEnvironment } from './cli/environment.js';
import type { EmulatorOptions } from './emulator-options.js';
import type { Control } from './emulation/client.js';
import { createEmulator } from './emulator.js';
import type { Emulator, ListenAt } from './emulator-types.js';
import type { RequestListener } from './http-shapes.js';
import { checkInProcessOptions } from './in-process-options.js';

export interface StartOptions extends EmulatorOptions, ListenAt {}

export interface RunningEmulator {
  url: string;
  apiKey: string;
  emulator: Emulator;
  /** The typed control client: faults, clock, balances, keys, scenarios, journal, reset (docs/control-plane.md). */
  control: Control;
  /** emulator.close(): stops the server and the renderer, then makes the last commit to the store of record. */
  close(): Promise<void>;
}

/** A full emulator whose request listener needs no socket (supertest). Call `emulator.close()` when done. */
export function createEmulatorApp(options: EmulatorOptions = {}): Emulator {
  checkInProcessOptions(options, 'createEmulatorApp');
  // FFMPEG_PATH and PATH are honoured in-process too: the one environment setting a test machine may need.
  const environment = readEnvironment();
  return createEmulator(
    options.ffmpegPath === undefined && environment.ffmpegPath
      ? { ...options, ffmpegPath: environment.ffmpegPath }
      : options,
    compositionExtras(environment),
  );
}

/** The request listener alone, for supertest: `request(createApp())`. */
export function createApp(options: EmulatorOptions = {}): RequestListener {
  checkInProcessOptions(options, 'createApp');
  return createEmulatorApp(options).app;
}

export async function startEmulator(options: StartOptions = {}): Promise<RunningEmulator> {
  checkInProcessOptions(options, 'startEmulator');
  const { port = 0, host = '127.0.0.1', ...rest } = options;
  const emulator = createEmulatorApp(rest);
  const { control } = emulator;
  const { url } = await emulator.start({ port, host });
  control.setBaseUrl(rest.publicBaseUrl ?? url);
  return { url, apiKey: emulator.apiKey, emulator, control, close: emulator.close };
}
