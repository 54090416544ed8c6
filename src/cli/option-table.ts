// The one option table: each option's config-file key and schema, flag, environment variables and --help line.
// A new option is one row here (and its row in docs/api.md#configuration, which test/control/cli-options.test.ts checks).
import * as z from 'zod';
import {
  DEFAULT_BODY_TIMEOUT,
  DEFAULT_HEADERS_TIMEOUT,
  DEFAULT_HOST,
  DEFAULT_PORT,
  MAX_REQUEST_TIMEOUT_MS,
} from '../config.js';
import { MAX_DURATION_MS } from '../domain/durations.js';
import { errorCodesSchema, errorStatusesSchema, instantSchema } from './config-only-values.js';
import { configOnly, type OptionEntry, onByDefault, option } from './option-entry.js';
import {
  controlOrigins,
  apiKeySecret,
  duration,
  fileOrData,
  hosts,
  httpUrl,
  modelProfile,
  onOff,
  oneOf,
  origins,
  profile,
  text,
  wholeNumber,
} from './option-values.js';

export type { CliOptions, OptionEntry, OptionKey } from './option-entry.js';

const HOURS = 'must be a number of hours above 0';

const PORT_RANGE = wholeNumber(0, 65_535, ' (0 picks a free one)');

/** Node's requestTimeout bounds a whole request; a timeout for a part of it cannot be longer. */
const REQUEST_TIMEOUT = { ms: MAX_REQUEST_TIMEOUT_MS, text: '5m' };

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
  option('apiKey', apiKeySecret, {
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
  option('publicBaseUrl', httpUrl, {
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
  option('scenario', text, {
    schema: fileOrData,
    flag: 'scenario',
    arg: 'NAME|PATH',
    env: 'MEDIA_EMULATOR_SCENARIO',
    help: 'failure scenario to apply at start and after every reset, e.g. flaky-network',
  }),
  option('stateFile', text, {
    flag: 'state-file',
    arg: 'FILE',
    env: 'MEDIA_EMULATOR_STATE_FILE',
    help: 'keep the state in the SQLite database FILE (an old JSON state file is migrated once)',
  }),
  option('stateSync', oneOf(['normal', 'full'] as const), {
    flag: 'state-sync',
    arg: 'LEVEL',
    env: 'MEDIA_EMULATOR_STATE_SYNC',
    help: 'normal (default: survives kill -9) or full (an fsync per commit: survives a power loss too)',
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
    schema: z.union([text.schema, z.literal(false)], { error: 'must be the token (text) or false' }),
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
  option('renderTimeout', duration(1, '1ms'), {
    flag: 'render-timeout',
    arg: 'D',
    env: 'MEDIA_EMULATOR_RENDER_TIMEOUT',
    help: 'longest one ffmpeg run, e.g. 30s (default 60s)',
  }),
  option('headersTimeout', duration(1, '1ms', REQUEST_TIMEOUT), {
    flag: 'headers-timeout',
    arg: 'D',
    env: 'MEDIA_EMULATOR_HEADERS_TIMEOUT',
    help: `longest a request's headers may take to arrive; then 408 (default ${DEFAULT_HEADERS_TIMEOUT})`,
  }),
  option('bodyTimeout', duration(1, '1ms', REQUEST_TIMEOUT), {
    flag: 'body-timeout',
    arg: 'D',
    env: 'MEDIA_EMULATOR_BODY_TIMEOUT',
    help: `longest a request body may go without a byte; then 408 request_timeout (default ${DEFAULT_BODY_TIMEOUT})`,
  }),
  option('maxBufferedBodyBytes', wholeNumber(1), {
    flag: 'max-buffered-body-bytes',
    arg: 'BYTES',
    env: 'MEDIA_EMULATOR_MAX_BUFFERED_BODY_BYTES',
    help: 'bytes the request bodies being read may hold at once; past it, 503 server_busy (default 64 MiB)',
  }),
  option('catalogue', text, {
    schema: fileOrData,
    flag: 'catalogue',
    arg: 'FILE',
    env: 'MEDIA_EMULATOR_CATALOGUE',
    help: 'your own catalogue JSON',
  }),
  option('calibration', text, {
    schema: fileOrData,
    flag: 'calibration',
    arg: 'FILE',
    env: 'MEDIA_EMULATOR_CALIBRATION',
    help: 'what verify observed on the real service: statuses, codes, catalogue, prices',
  }),
  option('urlTtlSeconds', wholeNumber(1, MAX_DURATION_MS / 1000, ' (seconds, up to 100 years)'), {
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
    schema: z.union([text.schema, z.literal(false)], {
      error: 'must be the path or name of an ffmpeg binary, or false',
    }),
    env: [
      {
        name: 'FFMPEG_PATH',
        parse: text.fromText,
        help: 'ffmpeg binary to use (else ffmpeg on PATH, ffmpeg-static, then the npm-shipped static build); false in the config file forces fixture outputs',
      },
    ],
  },
  configOnly('clock', oneOf(['real', 'frozen'] as const).schema),
  configOnly('clockStart', instantSchema),
  configOnly('pollAfterSeconds', wholeNumber().schema),
  configOnly('idempotencyWindowHours', z.number({ error: HOURS }).positive({ error: HOURS })),
  configOnly('errorStatuses', errorStatusesSchema),
  configOnly('errorCodes', errorCodesSchema),
  configOnly('maxParallelRenders', wholeNumber().schema),
  option('maxUploadStoreBytes', wholeNumber(), {
    flag: 'max-upload-store-bytes',
    arg: 'BYTES',
    env: 'MEDIA_EMULATOR_MAX_UPLOAD_STORE_BYTES',
    help: 'byte cap of reference uploads kept on disk; past it, 507 upload_storage_full (default 1 GiB)',
  }),
  option('maxSandboxes', wholeNumber(0, 100_000), {
    flag: 'max-sandboxes',
    arg: 'N',
    env: 'MEDIA_EMULATOR_MAX_SANDBOXES',
    help: 'most sandboxes alive at once (POST /_emulator/sandboxes); past it, 429 sandbox_limit_reached (default 1000)',
  }),
  configOnly('maxStoreBytes', wholeNumber().schema),
  configOnly('storageDir', text.schema),
];
