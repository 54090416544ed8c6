// The in-process entry points: createEmulatorApp / createApp for supertest, startEmulator for a real socket.
import { compositionExtras, readEnvironment } from './cli/environment.js';
import type { EmulatorOptions } from './emulator-options.js';
import type { Control } from './emulation/client.js';
import { createEmulator } from './emulator.js';
import type { Emulator, ListenAt } from './emulator-types.js';
import type { RequestListener } from './http-shapes.js';
import { OPTION_TABLE } from './cli/option-table.js';
import { nearest, spellings } from './cli/suggest.js';

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

/** The option table's keys (the config file's, which refuses any other) and the in-process `log`. */
const OPTION_NAMES = new Set<string>([...OPTION_TABLE.map((entry) => entry.key), 'log']);

/**
 * A name that is no option would otherwise start the emulator with the default, silently (`renderer: 'fixture'`
 * rendering with ffmpeg): TypeScript catches it in an object literal, not in plain JavaScript, a spread or a variable.
 * Refused with the nearest name, as the CLI refuses a config key. `port` and `host` are accepted everywhere, so one
 * options object serves all three entry points (where nothing listens they do nothing).
 */
function refuseUnknownOptions(options: object, entry: string): void {
  const unknown = Object.keys(options).filter((name) => !OPTION_NAMES.has(name));
  if (unknown.length === 0) return;
  // Flags and variables spelled as a key ("balance", "api-key") point at the key too.
  const names = spellings((row) => row.key);
  const described = unknown.map((name) => {
    const hint = nearest(name, names);
    return `"${name}"${hint ? ` (did you mean "${hint}"?)` : ''}`;
  });
  throw new TypeError(
    `${entry}: unknown option ${described.join(', ')}. The options are listed in docs/api.md#configuration.`,
  );
}

/** A full emulator whose Express app needs no socket (supertest). Call `emulator.close()` when done. */
export function createEmulatorApp(options: EmulatorOptions = {}): Emulator {
  refuseUnknownOptions(options, 'createEmulatorApp');
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
  refuseUnknownOptions(options, 'createApp');
  return createEmulatorApp(options).app;
}

export async function startEmulator(options: StartOptions = {}): Promise<RunningEmulator> {
  refuseUnknownOptions(options, 'startEmulator');
  const { port = 0, host = '127.0.0.1', ...rest } = options;
  const emulator = createEmulatorApp(rest);
  const { control } = emulator;
  const { url } = await emulator.start({ port, host });
  control.setBaseUrl(rest.publicBaseUrl ?? url);
  return { url, apiKey: emulator.apiKey, emulator, control, close: emulator.close };
}
