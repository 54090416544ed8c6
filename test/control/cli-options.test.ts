// The command line's options: flags, environment variables, the config file, --help, and the mistakes each refuses.
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPTION_TABLE } from '../../src/cli/option-table.js';
import { CliError, cliOptions, HELP, metaCommand } from '../../src/cli/options.js';

const parse = (argv: string[], env: Record<string, string> = {}) => {
  const options = cliOptions(argv, env);
  if (typeof options === 'string') throw new Error(`unexpected ${options}`);
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

  it('keeps every flag and variable it has ever had, each setting its option', () => {
    const flags: [string[], object][] = [
      [['--port', '9000'], { port: 9000 }],
      [['--host', '0.0.0.0'], { host: '0.0.0.0' }],
      [['--api-key', 'sk-media-xxxx'], { apiKey: 'sk-media-xxxx' }],
      [['--balance', '5'], { initialBalance: 5 }],
      [['--timing', 'fast'], { timing: 'fast' }],
      [['--timing-model', 'a=manual', '--timing-model', 'b=fast'], { timingByModel: { a: 'manual', b: 'fast' } }],
      [['--seed', '3'], { seed: 3 }],
      [['--public-url', 'http://h:1'], { publicBaseUrl: 'http://h:1' }],
      [['--cors-origins', 'http://a.test'], { corsOrigins: ['http://a.test'] }],
      [['--no-admin-token'], { adminToken: false }],
      [['--allowed-hosts', 'box.local'], { allowedHosts: ['box.local'] }],
      [['--control-cors-origins', 'http://c.test'], { controlCorsOrigins: ['http://c.test'] }],
      [['--render-timeout', '3s'], { renderTimeout: '3s' }],
      [['--catalogue', 'c.json'], { catalogue: 'c.json' }],
      [['--calibration', 'k.json'], { calibration: 'k.json' }],
      [['--url-ttl', '60'], { urlTtlSeconds: 60 }],
      [['--output-label', 'request'], { outputLabel: 'request' }],
      [['--signing-secret', 'hmac-1'], { signingSecret: 'hmac-1' }],
    ];
    for (const [argv, expected] of flags) expect(parse(argv)).toMatchObject(expected);
    expect(
      parse([], {
        PORT: '9001',
        HOST: '::1',
        MEDIA_EMULATOR_API_KEY: 'sk-media-yyyy',
        MEDIA_EMULATOR_BALANCE: '7',
        MEDIA_EMULATOR_TIMING: 'instant',
        MEDIA_EMULATOR_SEED: '4',
        MEDIA_EMULATOR_PUBLIC_URL: 'http://p:2',
        MEDIA_EMULATOR_CORS_ORIGINS: '*',
        MEDIA_EMULATOR_ALLOWED_HOSTS: 'a.local,B.local',
        MEDIA_EMULATOR_CONTROL_CORS_ORIGINS: 'http://d.test',
        MEDIA_EMULATOR_RENDER_TIMEOUT: '250ms',
        MEDIA_EMULATOR_CATALOGUE: 'cat.json',
        MEDIA_EMULATOR_CALIBRATION: 'cal.json',
        MEDIA_EMULATOR_URL_TTL: '30',
        MEDIA_EMULATOR_OUTPUT_LABEL: 'request',
        MEDIA_EMULATOR_SIGNING_SECRET: 'hmac-2',
        FFMPEG_PATH: '/opt/ffmpeg',
      }),
    ).toMatchObject({
      port: 9001,
      host: '::1',
      apiKey: 'sk-media-yyyy',
      initialBalance: 7,
      timing: 'instant',
      seed: 4,
      publicBaseUrl: 'http://p:2',
      corsOrigins: '*',
      allowedHosts: ['a.local', 'b.local'],
      controlCorsOrigins: ['http://d.test'],
      renderTimeout: '250ms',
      catalogue: 'cat.json',
      calibration: 'cal.json',
      urlTtlSeconds: 30,
      outputLabel: 'request',
      signingSecret: 'hmac-2',
      ffmpegPath: '/opt/ffmpeg',
    });
    expect(parse([], { MEDIA_EMULATOR_NO_ADMIN_TOKEN: '1', EMULATOR_ADMIN_TOKEN: 't' }).adminToken).toBe(false);
    expect(parse([], { MEDIA_EMULATOR_NO_ADMIN_TOKEN: 'off', EMULATOR_ADMIN_TOKEN: 't' }).adminToken).toBe('t');
  });

  it('refuses a flag given an empty value rather than falling back to the default', () => {
    for (const flag of ['--timing', '--api-key', '--balance', '--state-file', '--timing-model'])
      expect(() => parse([flag, ''])).toThrow(
        new CliError(`${flag} must not be empty; give a value or leave the flag out`),
      );
    // An empty variable is an unset one, as a shell writes `VAR=` to clear it.
    expect(parse([], { MEDIA_EMULATOR_TIMING: '' }).timing).toBe('realistic');
  });

  it('reads the upload store cap from a flag or a variable, as its 507 says', () => {
    expect(parse(['--max-upload-store-bytes', '4096']).maxUploadStoreBytes).toBe(4096);
    expect(parse([], { MEDIA_EMULATOR_MAX_UPLOAD_STORE_BYTES: '8192' }).maxUploadStoreBytes).toBe(8192);
    expect(() => parse(['--max-upload-store-bytes', '1GB'])).toThrow(
      '--max-upload-store-bytes must be a whole number >= 0, got "1GB"',
    );
  });

  it('answers --version and --help before reading anything else', () => {
    expect(metaCommand(['--version'])).toBe('version');
    expect(metaCommand(['-h'])).toBe('help');
    expect(metaCommand(['--timing', 'fast'])).toBeUndefined();
    // No config file is opened for either.
    expect(metaCommand(['--config', '/no/such/file.json', '--version'])).toBe('version');
  });

  it('refuses an unknown flag with the nearest known one and a pointer to --help', () => {
    expect(() => parse(['--timming', 'fast'])).toThrow(
      new CliError('unknown option --timming; did you mean --timing? See --help for every option.'),
    );
    // The option's config key or variable, written as a flag, points at its flag.
    expect(() => parse(['--initial-balance', '5'])).toThrow('did you mean --balance?');
    expect(() => parse(['--versoin'])).toThrow('did you mean --version?');
    // Nothing close: no guess.
    expect(() => parse(['--zzzzzzzz'])).toThrow(
      new CliError('unknown option --zzzzzzzz. See --help for every option.'),
    );
    expect(() => parse(['--output-label', 'frame'])).toThrow('--output-label must be one of generation, request');
  });

  describe('the config file', () => {
    const folder = mkdtempSync(join(tmpdir(), 'cli-config-check-'));
    const file = (name: string, content: string) => {
      const path = join(folder, name);
      writeFileSync(path, content);
      return path;
    };
    const refusal = (argv: string[], env: Record<string, string> = {}) => {
      try {
        parse(argv, env);
      } catch (error) {
        expect(error).toBeInstanceOf(CliError);
        return (error as Error).message;
      }
      throw new Error(`${argv.join(' ')} was accepted`);
    };

    it('refuses an unknown key on one line, naming it and the nearest known key', () => {
      const path = file('balance.json', '{"balance": 5}');
      expect(refusal(['--config', path])).toBe(
        `config file ${path}: unknown key "balance"; did you mean "initialBalance"?`,
      );
      expect(refusal(['--config', file('typo.json', '{"stateFlie": "s.json"}')])).toContain(
        'unknown key "stateFlie"; did you mean "stateFile"?',
      );
      expect(refusal(['--config', file('far.json', '{"colour": "red"}')])).toMatch(/unknown key "colour"$/);
    });

    it('refuses a value of the wrong kind, naming the key', () => {
      expect(refusal(['--config', file('t.json', '{"timing": "slow"}')])).toMatch(
        /: timing must be one of realistic, fast, instant, manual, got "slow"$/,
      );
      expect(refusal(['--config', file('p.json', '{"port": 70000}')])).toMatch(
        /: port must be a whole number from 0 to 65535 \(0 picks a free one\), got 70000$/,
      );
      expect(refusal(['--config', file('j.json', '{"port": ')])).toMatch(/is not JSON/);
    });

    it('refuses values that would break later: a status no error has, an unknown or empty code, an unreadable time', () => {
      const refused = (name: string, options: object) => refusal(['--config', file(name, JSON.stringify(options))]);
      expect(refused('s99.json', { errorStatuses: { insufficient_credits: 99 } })).toMatch(
        /: errorStatuses\.insufficient_credits must be an HTTP error status, a whole number from 400 to 599, got 99$/,
      );
      expect(refused('s200.json', { errorStatuses: { insufficient_credits: 200 } })).toContain('from 400 to 599');
      expect(refused('typo.json', { errorStatuses: { insufficent_credits: 400 } })).toMatch(
        /: errorStatuses\.insufficent_credits is no error code the emulator answers \(the codes are in docs\/api\.md#errors\); did you mean "insufficient_credits"\?$/,
      );
      expect(refused('rename.json', { errorCodes: { modle_not_found: 'x' } })).toContain(
        'did you mean "model_not_found"?',
      );
      expect(refused('empty.json', { errorCodes: { insufficient_credits: '' } })).toMatch(
        /: errorCodes\.insufficient_credits must be the code to answer with: non-empty text without spaces, got ""$/,
      );
      expect(refused('clock.json', { clockStart: 'garbage', clock: 'frozen' })).toMatch(
        /: clockStart must be an ISO 8601 time .*, got "garbage"$/,
      );
      expect(refused('year.json', { clockStart: '10000-01-01T00:00:00Z' })).toContain('up to 9999-12-31');
      expect(refused('key.json', { apiKey: '' })).toMatch(
        /: apiKey must look like 'sk-media-' followed by 4-200 letters, digits, '_' or '-', got ""$/,
      );
      // The plane's and the store's codes are in the error table too.
      expect(
        parse(['--config', file('plane.json', JSON.stringify({ errorStatuses: { fault_not_found: 410 } }))])
          .errorStatuses,
      ).toEqual({ fault_not_found: 410 });
    });

    it('says in one line that a missing file does not exist, not a raw ENOENT', () => {
      const message = refusal(['--config', './nope.json']);
      expect(message).toBe(
        'config file ./nope.json does not exist; --config and MEDIA_EMULATOR_CONFIG take a JSON file of options (docs/api.md#configuration).',
      );
      expect(refusal([], { MEDIA_EMULATOR_CONFIG: folder })).toContain('is a folder');
    });

    it('refuses a file past 16 MiB before reading it', () => {
      const huge = file('huge.json', '');
      truncateSync(huge, 16 * 1024 * 1024 + 1); // sparse: nothing written, the size is all that is checked
      expect(refusal(['--config', huge])).toContain('more than an options file ever needs');
    });

    it('accepts every key of the option table', () => {
      const every = {
        clock: 'frozen',
        clockStart: '2026-01-01T00:00:00Z',
        pollAfterSeconds: 2,
        idempotencyWindowHours: 1,
        errorStatuses: { insufficient_credits: 400 },
        errorCodes: { insufficient_credits: 'balance_too_low' },
        maxParallelRenders: 1,
        maxUploadStoreBytes: 1000,
        maxStoreBytes: 1000,
        storageDir: '/tmp/x',
        ffmpegPath: false,
        adminToken: 'tok',
        controlPlane: false,
        magicPrompts: false,
        timingByModel: { a: 'fast' },
      };
      expect(parse(['--config', file('every.json', JSON.stringify(every))])).toMatchObject(every);
    });
  });

  it('documents every option of the table in --help and in docs/api.md#configuration', () => {
    const docs = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
    const section = docs.slice(docs.indexOf('## Configuration'), docs.indexOf('Timing profiles'));
    for (const entry of OPTION_TABLE) {
      const row = section.split('\n').find((line) => line.startsWith(`| \`${entry.key}\``));
      expect(row, `docs/api.md has no row for ${entry.key}`).toBeDefined();
      if (entry.flag) {
        expect(HELP).toContain(`--${entry.flag.name}`);
        expect(row).toContain(`--${entry.flag.name}`);
      }
      for (const variable of entry.env ?? []) {
        expect(HELP).toContain(variable.name);
        expect(row).toContain(variable.name);
      }
    }
  });
});
