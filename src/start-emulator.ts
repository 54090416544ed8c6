// The in-process entry points: createEmulatorApp / createApp for supertest, startEmulator for a real socket.
import { compositionExtras, readEnvironment } from './cli/environment.js';
import type { EmulatorOptions } from './emulator-options.js';
import type { Control } from './emulation/client.js';
import { createEmulator, type Emulator } from './emulator.js';
import type { RequestListener } from './http-shapes.js';

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

/** The Express app alone as a request listener, for supertest: `request(createApp())`. */
export function createApp(options: EmulatorOptions = {}): RequestListener {
  return createEmulatorApp(options).app;
}

export async function startEmulator(options: StartOptions = {}): Promise<RunningEmulator> {
  const { port = 0, host = '127.0.0.1', ...rest } = options;
  const emulator = createEmulatorApp(rest);
  const { control } = emulator;
  let url: string;
  try {
    await emulator.persistence.open();
    // Listen at once: renders wait for the renderer by themselves, and `emulator.ready` tells when ffmpeg was found.
    ({ url } = await emulator.listen(port, host));
  } catch (error) {
    await emulator.close();
    throw error;
  }
  control.setBaseUrl(rest.publicBaseUrl ?? url);
  const close = async () => {
    await emulator.close();
    await emulator.persistence.close();
  };
  return { url, apiKey: emulator.apiKey, emulator, control, close };
}
