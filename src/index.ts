// Public entry points for tests and tools: createApp for supertest, startEmulator for a real socket.
import type { Express } from 'express';
import type { EmulatorOptions } from './config.js';
import { createEmulator, type Emulator } from './emulator.js';
import { standardExtensions } from './extensions.js';

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
  close(): Promise<void>;
}

/** A full emulator whose Express app needs no socket (supertest). Call `emulator.close()` when done. */
export function createEmulatorApp(options: EmulatorOptions = {}): Emulator {
  return createEmulator(withEnvironmentDefaults(options), standardExtensions());
}

/** The Express app alone, for supertest: `request(createApp())`. */
export function createApp(options: EmulatorOptions = {}): Express {
  return createEmulatorApp(options).app;
}

export async function startEmulator(options: StartOptions = {}): Promise<RunningEmulator> {
  const { port = 0, host = '127.0.0.1', ...rest } = options;
  const emulator = createEmulatorApp(rest);
  await emulator.ready;
  const { url } = await emulator.listen(port, host);
  return { url, apiKey: emulator.apiKey, emulator, close: () => emulator.close() };
}

/** FFMPEG_PATH is honoured in-process too, as the one environment setting a test machine may need. */
function withEnvironmentDefaults(options: EmulatorOptions): EmulatorOptions {
  const fromEnv = process.env.FFMPEG_PATH;
  return options.ffmpegPath === undefined && fromEnv ? { ...options, ffmpegPath: fromEnv } : options;
}

export { createEmulator } from './emulator.js';
export type { Emulator, EmulatorExtensions } from './emulator.js';
export type { EmulatorOptions } from './config.js';
export { DEFAULT_API_KEY, DEFAULT_BALANCE, DEFAULT_PORT } from './config.js';
export type { TimingProfile } from './domain/timing.js';
