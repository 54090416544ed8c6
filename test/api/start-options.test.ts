// The in-process entry points refuse an option name they do not know, as the CLI refuses an unknown config key.
import { describe, expect, it } from 'vitest';
import { OPTION_TABLE } from '../../src/cli/option-table.js';
import {
  createApp,
  createEmulatorApp,
  type EmulatorOptions,
  type StartOptions,
  startEmulator,
} from '../../src/index.js';

/** What a plain JavaScript caller can pass, which TypeScript would have refused. */
const untyped = (options: Record<string, unknown>) => options as EmulatorOptions;

describe('options of startEmulator, createEmulatorApp and createApp', () => {
  it('refuses a mistyped option with the nearest name, before anything starts', async () => {
    await expect(startEmulator(untyped({ timming: 'manual' }))).rejects.toThrow(
      'startEmulator: unknown option "timming" (did you mean "timing"?). The options are listed in docs/api.md#configuration.',
    );
  });

  it('names every unknown option, and gives no hint where none is near', () => {
    expect(() => createEmulatorApp(untyped({ renderer: 'fixture', initalBalance: 5 }))).toThrow(
      'createEmulatorApp: unknown option "renderer", "initalBalance" (did you mean "initialBalance"?).',
    );
  });

  it('takes port and host where nothing listens too, so one options object serves every entry point', async () => {
    const shared: StartOptions = { port: 0, host: '127.0.0.1', timing: 'manual', ffmpegPath: false };
    expect(typeof createApp(shared)).toBe('function');
    const emulator = createEmulatorApp(shared);
    await emulator.close();
    expect(() => createApp(untyped({ prot: 0 }))).toThrow('createApp: unknown option "prot" (did you mean "port"?).');
  });

  it('accepts every key of the option table, and the in-process log', async () => {
    const everyKey = Object.fromEntries(
      [...OPTION_TABLE.map((entry) => entry.key), 'log'].map((key) => [key, undefined]),
    );
    const running = await startEmulator(untyped(everyKey));
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await running.close();
    }
  });
});
