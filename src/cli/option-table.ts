// The one option table: each option's config-file key and schema, flag, environment variables and --help line.
import * as z from 'zod';
import { DEFAULT_HOST, DEFAULT_PORT, type EmulatorOptions } from '../config.js';
import {
  controlOrigins,
  fileOrData,
  hosts,
  modelProfile,
  onOff,
  oneOf,
  origins,
  profile,
  text,
  type ValueKind,
  wholeNumber,
} from './option-values.js';

export interface CliOptions extends EmulatorOptions {
  port: number;
  host: string;
}

export type OptionKey = Exclude<keyof CliOptions, 'log'>;

export interface OptionEntry {
  /** The config file's key, and the field of the options it sets. */
  key: OptionKey;
  /** What the config file may hold under `key`. */
  schema: z.ZodType;
  /** `--name ARG`, read with `parse`; or a switch that `sets` a fixed value. */
  flag?: {
    name: string;
    arg?: string;
    parse?: (name: string, text: string) => unknown;
    sets?: unknown;
    multiple?: boolean;
  };
  /** Variables read in order, a later one winning; `shown` is how --help names it (`NAME=off`); with `help`, a row of its own. */
  env?: { name: string; parse: (name: string, text: string) => unknown; shown?: string; help?: string }[];
  /** The --help line (for an option with a flag or a variable). */
  help?: string;
  /** Objects from the file, the environment and flags are merged key by key rather than replaced. */
  merge?: boolean;
  /** What the CLI uses when no source sets it (in-process defaults are resolveOptions()'s). */
  cliDefault?: unknown;
}

interface Sources {
  flag?: string;
  arg?: string;
  env?: string;
  help?: string;
  multiple?: boolean;
  merge?: boolean;
  cliDefault?: unknown;
}

/** An option whose flag and variable both take a value of `kind`. */
function option<T>(key: OptionKey, kind: ValueKind<T>, s: Sources): OptionEntry {
  return {
    key,
    schema: kind.schema,
    flag: s.flag ? { name: s.flag, arg: s.arg, parse: kind.fromText, multiple: s.multiple } : undefined,
    env: s.env ? [{ name: s.env, parse: kind.fromText }] : undefined,
    help: s.help,
    merge: s.merge,
    cliDefault: s.cliDefault,
  };
}

/** On by default: `--no-NAME` turns it off, and so does `VARIABLE=off` (`on` turns it back on). */
function onByDefault(key: OptionKey, flag: string, env: string, help: string): OptionEntry {
  return {
    key,
    schema: onOff.schema,
    flag: { name: flag, sets: false },
    env: [{ name: env, parse: onOff.fromText, shown: `${env}=off` }],
    help,
  };
}

const configOnly = (key: OptionKey, schema: z.ZodType): OptionEntry => ({ key, schema });

const PORT_RANGE = wholeNumber(0, 65_535, ' (0 picks a free one)');

export const OPTION_TABLE: readonly OptionEntry[] = [
  option('port', PORT_RANGE, {
    flag: 'port',
    arg: 'N',
    env: 'PORT',
    help: `port (default ${DEFAULT_PORT})`,
    cliDefault: DEFAULT_PORT,
  }),
  option('host', text, {
    flag: 'host',
    arg: 'H',
    env: 'HOST',
    help: `bind address (default ${DEFAULT_HOST})`,
    cliDefault: DEFAULT_HOST,
  }),
  option('apiKey', text, {
    flag: 'api-key',
    arg: 'KEY',
    env: 'MEDIA_EMULATOR_API_KEY',
    help: 'seeded key, sk-media-...',
  }),
  option('initialBalance', wholeNumber(), {
    flag: 'balance',
    arg: 'N',
    env: 'MEDIA_EMULATOR_BALANCE',
    help: 'seeded wallet balance',
  }),
  option('timing', profile, {
    flag: 'timing',
    arg: 'P',
    env: 'MEDIA_EMULATOR_TIMING',
    help: 'realistic | fast | instant | manual',
    cliDefault: 'realistic',
  }),
  option('timingByModel', modelProfile, {
    flag: 'timing-model',
    arg: 'SLUG=P',
    help: 'per-model timing profile (repeatable)',
    multiple: true,
    merge: true,
    cliDefault: {},
  }),
  option('seed', wholeNumber(), {
    flag: 'seed',
    arg: 'N',
    env: 'MEDIA_EMULATOR_SEED',
    help: 'repeatable ids, jitter and probabilities',
  }),
  option('publicBaseUrl', text, {
    flag: 'public-url',
    arg: 'URL',
    env: 'MEDIA_EMULATOR_PUBLIC_URL',
    help: 'base URL for signed links',
  }),
  option('corsOrigins', origins, {
    flag: 'cors-origins',
    arg: 'LIST',
    env: 'MEDIA_EMULATOR_CORS_ORIGINS',
    help: '* (default) or comma-separated origins allowed to call from a browser',
  }),
  {
    ...option('scenario', text, {
      flag: 'scenario',
      arg: 'NAME|PATH',
      env: 'MEDIA_EMULATOR_SCENARIO',
      help: 'failure scenario to apply at start and after every reset, e.g. flaky-network',
    }),
    schema: fileOrData,
  },
  option('stateFile', text, {
    flag: 'state-file',
    arg: 'FILE',
    env: 'MEDIA_EMULATOR_STATE_FILE',
    help: 'load state from FILE at start if it exists, save it there on exit',
  }),
  onByDefault(
    'controlPlane',
    'no-control-plane',
    'MEDIA_EMULATOR_CONTROL_PLANE',
    'no /_emulator/* routes except health',
  ),
  onByDefault(
    'magicPrompts',
    'no-magic-prompts',
    'MEDIA_EMULATOR_MAGIC_PROMPTS',
    'treat [emulator:...] prompt markers as plain text',
  ),
  {
    key: 'adminToken',
    schema: z.union([z.string(), z.literal(false)]),
    flag: { name: 'no-admin-token', sets: false },
    env: [
      {
        name: 'EMULATOR_ADMIN_TOKEN',
        parse: text.fromText,
        help: 'every /_emulator/* call except health and the console needs this token (environment only, so it never shows in a process list); bound beyond loopback without one, a random token is generated and printed with a console link',
      },
      {
        name: 'MEDIA_EMULATOR_NO_ADMIN_TOKEN',
        parse: (name, value) => (onOff.fromText(name, value) ? false : undefined),
        shown: 'MEDIA_EMULATOR_NO_ADMIN_TOKEN=1',
      },
    ],
    help: 'keep the control plane open even when bound beyond loopback: anyone who can reach the port controls the emulator',
  },
  option('allowedHosts', hosts, {
    flag: 'allowed-hosts',
    arg: 'LIST',
    env: 'MEDIA_EMULATOR_ALLOWED_HOSTS',
    help: 'extra Host names allowed to reach /_emulator/* and the console, besides localhost, 127.0.0.1, [::1] and the --public-url host',
  }),
  option('controlCorsOrigins', controlOrigins, {
    flag: 'control-cors-origins',
    arg: 'L',
    env: 'MEDIA_EMULATOR_CONTROL_CORS_ORIGINS',
    help: 'origins a browser page may drive /_emulator/* from (default none)',
  }),
  {
    ...option('renderTimeout', text, {
      flag: 'render-timeout',
      arg: 'D',
      env: 'MEDIA_EMULATOR_RENDER_TIMEOUT',
      help: 'longest one ffmpeg run, e.g. 30s (default 60s)',
    }),
    schema: z.union([z.string(), z.number()]),
  },
  {
    ...option('catalogue', text, {
      flag: 'catalogue',
      arg: 'FILE',
      env: 'MEDIA_EMULATOR_CATALOGUE',
      help: 'your own catalogue JSON',
    }),
    schema: fileOrData,
  },
  {
    ...option('calibration', text, {
      flag: 'calibration',
      arg: 'FILE',
      env: 'MEDIA_EMULATOR_CALIBRATION',
      help: 'what verify observed on the real service: statuses, codes, catalogue, prices',
    }),
    schema: fileOrData,
  },
  option('urlTtlSeconds', wholeNumber(1), {
    flag: 'url-ttl',
    arg: 'SECONDS',
    env: 'MEDIA_EMULATOR_URL_TTL',
    help: 'signed URL lifetime',
  }),
  option('signingSecret', text, {
    flag: 'signing-secret',
    arg: 'S',
    env: 'MEDIA_EMULATOR_SIGNING_SECRET',
    help: 'HMAC secret of signed links: pass one to get identical links across runs',
  }),
  option('outputLabel', oneOf(['generation', 'request'] as const), {
    flag: 'output-label',
    arg: 'L',
    env: 'MEDIA_EMULATOR_OUTPUT_LABEL',
    help: 'generation | request: what each output shows',
    cliDefault: 'generation',
  }),
  {
    key: 'ffmpegPath',
    schema: z.union([z.string(), z.literal(false)]),
    env: [
      {
        name: 'FFMPEG_PATH',
        parse: text.fromText,
        help: 'ffmpeg binary to use (else ffmpeg-static, else ffmpeg on PATH); false in the config file forces fixture outputs',
      },
    ],
  },
  configOnly('clock', z.enum(['real', 'frozen'])),
  configOnly('clockStart', z.union([z.string(), z.number()])),
  configOnly('pollAfterSeconds', z.number().int().min(0)),
  configOnly('idempotencyWindowHours', z.number().positive()),
  configOnly('errorStatuses', z.record(z.string(), z.number().int())),
  configOnly('errorCodes', z.record(z.string(), z.string())),
  configOnly('maxParallelRenders', z.number().int().min(0)),
  configOnly('maxUploadStoreBytes', z.number().int().min(0)),
  configOnly('maxStoreBytes', z.number().int().min(0)),
  configOnly('storageDir', z.string()),
];
