// The in-process entry points refuse an option name they do not know, or a value the option cannot take, as the CLI
// refuses them in a config file: before anything starts, naming the option, what was given and what it accepts.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

  it('refuses a value of the wrong type with a TypeError naming the option, the value and what it takes', async () => {
    const refused: [Record<string, unknown>, string][] = [
      [{ log: 'x' }, 'option log must be a function that takes one line of text, got "x"'],
      [{ port: 'abc' }, 'option port must be a whole number from 0 to 65535 (0 picks a free one), got "abc"'],
      [{ controlPlane: 'no' }, 'option controlPlane must be true or false, got "no"'],
      [{ magicPrompts: 'false' }, 'option magicPrompts must be true or false, got "false"'],
      [{ initialBalance: 'lots' }, 'option initialBalance must be a whole number >= 0, got "lots"'],
      [{ corsOrigins: 'http://x' }, 'option corsOrigins must be "*" or a list of origins'],
      [{ allowedHosts: 'abc' }, 'option allowedHosts must be a list of host names such as ["devbox.local"], got "abc"'],
      [{ catalogue: 5 }, 'option catalogue must be a file path or the data itself (an object), got 5'],
      [
        { clockStart: new Date('2026-01-01T00:00:00Z') },
        'option clockStart must be an ISO 8601 time such as "2026-01-01T00:00:00Z" or milliseconds since 1970, up to 9999-12-31, got a Date object (give its text: 2026-01-01T00:00:00.000Z)',
      ],
    ];
    for (const [options, message] of refused) {
      const started = startEmulator(untyped({ ffmpegPath: false, ...options }));
      await expect(started).rejects.toThrow(TypeError);
      await expect(started).rejects.toThrow(`startEmulator: ${message}`);
    }
    expect(() => createApp(untyped({ log: 'x' }))).toThrow(TypeError);
    expect(() => createEmulatorApp(untyped({ port: 'abc' }))).toThrow('createEmulatorApp: option port must be');
    expect(() => createApp(null as unknown as EmulatorOptions)).toThrow(
      'createApp: the options must be an object, got null.',
    );
  });

  it('refuses a port that is no number before listening: no socket file appears', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'start-options-'));
    const before = process.cwd();
    process.chdir(folder);
    try {
      await expect(startEmulator(untyped({ ffmpegPath: false, port: 'abc' }))).rejects.toThrow(TypeError);
      expect(existsSync(join(folder, 'abc'))).toBe(false);
    } finally {
      process.chdir(before);
    }
  });

  it('refuses a value out of range with a RangeError, by the rules the config file applies', async () => {
    const refused: [Record<string, unknown>, string][] = [
      [{ timing: 'bogus' }, 'option timing must be one of realistic, fast, instant, manual, got "bogus"'],
      [{ initialBalance: -5 }, 'option initialBalance must be a whole number >= 0, got -5'],
      [{ clockStart: 'garbage' }, 'option clockStart must be an ISO 8601 time'],
      [{ stateSync: 'bogus' }, 'option stateSync must be one of normal, full, got "bogus"'],
      [{ publicBaseUrl: 'nope' }, 'option publicBaseUrl must be an http:// or https:// URL'],
      // A link's expiry past the last date a Date holds answered 500 on every read.
      [{ urlTtlSeconds: Number.MAX_SAFE_INTEGER }, 'option urlTtlSeconds must be a whole number from 1 to 3153600000'],
      [
        { errorStatuses: { insufficient_credits: 99 } },
        'option errorStatuses.insufficient_credits must be an HTTP error status, a whole number from 400 to 599, got 99',
      ],
      [
        { errorCodes: { insufficent_credits: 'x' } },
        'option errorCodes.insufficent_credits is no error code the emulator answers (the codes are in docs/api.md#errors); did you mean "insufficient_credits"?',
      ],
      [{ errorCodes: { insufficient_credits: '' } }, 'option errorCodes.insufficient_credits must be the code'],
      [
        { renderTimeout: 0 },
        'option renderTimeout must be a duration such as "30s", "250ms" or "1h30m", or a number of milliseconds, at least 1ms, got 0',
      ],
      [
        { apiKey: 'foo' },
        `option apiKey must look like 'sk-media-' followed by 4-200 letters, digits, '_' or '-', got "foo"`,
      ],
      // A CORS or Host match is exact: these would never match, silently.
      [
        { controlCorsOrigins: ['localhost:5173'] },
        'option controlCorsOrigins.0 must be origins like "http://localhost:5173" (scheme and host; no path, no trailing slash), got "localhost:5173"',
      ],
      [
        { corsOrigins: ['http://localhost:5173/'] },
        'option corsOrigins.0 must be origins like "http://localhost:5173" (scheme and host; no path, no trailing slash), got "http://localhost:5173/"',
      ],
      [
        { allowedHosts: ['devbox.local:8787'] },
        'option allowedHosts.0 must be host names like "devbox.local" or "192.168.1.20" (lower case, no port), got "devbox.local:8787"',
      ],
    ];
    for (const [options, message] of refused) {
      const started = startEmulator(untyped({ ffmpegPath: false, ...options }));
      await expect(started).rejects.toThrow(RangeError);
      await expect(started).rejects.toThrow(`startEmulator: ${message}`);
    }
  });

  it('refuses a per-model timing for a model the catalogue lacks, as PUT /_emulator/timing does', () => {
    expect(() => createEmulatorApp({ ffmpegPath: false, timingByModel: { nope: 'fast' } })).toThrow(
      /^timingByModel \(--timing-model\): no model 'nope' in the catalogue; its models are [a-z0-9-]+, /,
    );
    expect(() => createEmulatorApp({ ffmpegPath: false, timingByModel: { nope: 'fast' } })).toThrow(RangeError);
  });

  it('refuses a storageDir that is no folder before anything starts, rather than failing the renderer later', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'start-options-')), 'absent');
    const started = startEmulator({ ffmpegPath: false, storageDir: missing });
    await expect(started).rejects.toThrow(RangeError);
    await expect(started).rejects.toThrow(
      `storageDir: ${missing} is not a folder the emulator can write to; create it or leave storageDir out.`,
    );
  });

  it('takes the values the config file takes, a plane-registered error code included', async () => {
    const emulator = createEmulatorApp({
      ffmpegPath: false,
      clock: 'frozen',
      clockStart: '2026-01-01T00:00:00Z',
      errorStatuses: { insufficient_credits: 400, fault_not_found: 410, state_not_loaded: 503 },
      errorCodes: { insufficient_credits: 'balance_too_low' },
      timingByModel: { 'still-sketch-v1': 'manual' },
      log: () => {},
      publicBaseUrl: 'http://localhost:9999',
    });
    await emulator.close();
  });
});
