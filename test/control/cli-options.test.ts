// The control-plane flags and environment variables of the command line.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError, cliOptions, HELP } from '../../src/cli/options.js';

const parse = (argv: string[], env: Record<string, string> = {}) => {
  const options = cliOptions(argv, env);
  if (options === 'help') throw new Error('unexpected help');
  return options;
};

describe('control-plane CLI options', () => {
  it('defaults: control plane on, magic prompts on, no token, no scenario, no state file', () => {
    const o = parse([]);
    expect([o.controlPlane, o.magicPrompts, o.adminToken, o.scenario, o.stateFile]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('reads --scenario, --state-file, --no-control-plane and --no-magic-prompts', () => {
    expect(
      parse(['--scenario', 'flaky-network', '--state-file', '/tmp/s.json', '--no-control-plane', '--no-magic-prompts']),
    ).toMatchObject({
      scenario: 'flaky-network',
      stateFile: '/tmp/s.json',
      controlPlane: false,
      magicPrompts: false,
    });
  });

  it('reads the environment, flags winning', () => {
    const env = {
      MEDIA_EMULATOR_SCENARIO: './my-scenario.json',
      MEDIA_EMULATOR_STATE_FILE: 'state.json',
      MEDIA_EMULATOR_CONTROL_PLANE: 'off',
      MEDIA_EMULATOR_MAGIC_PROMPTS: 'OFF',
      EMULATOR_ADMIN_TOKEN: 'secret-token',
    };
    expect(parse([], env)).toMatchObject({
      scenario: './my-scenario.json',
      stateFile: 'state.json',
      controlPlane: false,
      magicPrompts: false,
      adminToken: 'secret-token',
    });
    expect(parse(['--scenario', 'rate-limited'], env).scenario).toBe('rate-limited');
    expect(parse([], { MEDIA_EMULATOR_CONTROL_PLANE: 'on' }).controlPlane).toBe(true);
  });

  it('refuses an on/off variable with another value, naming it', () => {
    expect(() => parse([], { MEDIA_EMULATOR_CONTROL_PLANE: 'maybe' })).toThrow(CliError);
    expect(() => parse([], { MEDIA_EMULATOR_CONTROL_PLANE: 'maybe' })).toThrow(
      'MEDIA_EMULATOR_CONTROL_PLANE must be on or off',
    );
  });

  it('refuses a port outside 0-65535 from a flag or PORT, before anything starts', () => {
    expect(() => parse(['--port', '99999'])).toThrow('port must be a whole number from 0 to 65535');
    expect(() => parse([], { PORT: '65536' })).toThrow(CliError);
    expect(parse(['--port', '0']).port).toBe(0);
  });

  it('reads a --config file, with its paths relative to the file, under flags and environment', () => {
    const folder = mkdtempSync(join(tmpdir(), 'cli-config-'));
    const config = join(folder, 'emulator.json');
    const write = (options: object) => writeFileSync(config, JSON.stringify(options));
    write({
      port: 9100,
      stateFile: 'data/state.json',
      calibration: '../shared/calibration.json',
      scenario: 'scenarios/mine.json',
      catalogue: { models: [] },
      ffmpegPath: 'ffmpeg',
    });
    expect(parse(['--config', config])).toMatchObject({
      port: 9100,
      stateFile: join(folder, 'data/state.json'),
      calibration: join(folder, '../shared/calibration.json'),
      scenario: join(folder, 'scenarios/mine.json'),
      catalogue: { models: [] },
      // A bare name is looked up on PATH, so it stays as written.
      ffmpegPath: 'ffmpeg',
    });
    write({ scenario: 'flaky-network', stateFile: '/var/emulator/state.json', ffmpegPath: 'bin/ffmpeg' });
    expect(parse([], { MEDIA_EMULATOR_CONFIG: config })).toMatchObject({
      scenario: 'flaky-network',
      stateFile: '/var/emulator/state.json',
      ffmpegPath: join(folder, 'bin/ffmpeg'),
    });
    // Flags and environment win over the file, and are taken as given (relative to the working directory).
    expect(
      parse(['--config', config, '--state-file', 'here.json'], { MEDIA_EMULATOR_SCENARIO: 'rate-limited' }),
    ).toMatchObject({ stateFile: 'here.json', scenario: 'rate-limited' });
    write([1, 2]);
    expect(() => parse(['--config', config])).toThrow(/must hold a JSON object/);
  });

  it('documents every flag in --help', () => {
    for (const flag of [
      '--scenario',
      '--state-file',
      '--no-control-plane',
      '--no-magic-prompts',
      'EMULATOR_ADMIN_TOKEN',
    ])
      expect(HELP).toContain(flag);
  });
});
