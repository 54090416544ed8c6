// Turns flags, environment variables and an optional JSON config file into options (flags > env > file > defaults).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_HOST, DEFAULT_PORT, type EmulatorOptions } from '../config.js';
import { TIMING_PROFILES, type TimingProfile } from '../domain/timing.js';
import { isScenarioPath } from '../emulation/scenarios/scenario-files.js';

export interface CliOptions extends EmulatorOptions {
  port: number;
  host: string;
}

export class CliError extends Error {}

const FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  config: { type: 'string' },
  'api-key': { type: 'string' },
  balance: { type: 'string' },
  timing: { type: 'string' },
  'timing-model': { type: 'string', multiple: true },
  seed: { type: 'string' },
  'signing-secret': { type: 'string' },
  'public-url': { type: 'string' },
  'cors-origins': { type: 'string' },
  scenario: { type: 'string' },
  'state-file': { type: 'string' },
  'no-control-plane': { type: 'boolean' },
  'no-admin-token': { type: 'boolean' },
  'allowed-hosts': { type: 'string' },
  'control-cors-origins': { type: 'string' },
  'render-timeout': { type: 'string' },
  'no-magic-prompts': { type: 'boolean' },
  catalogue: { type: 'string' },
  calibration: { type: 'string' },
  'url-ttl': { type: 'string' },
  'output-label': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function integer(name: string, value: string | undefined, min = 0): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min)
    throw new CliError(`${name} must be a whole number >= ${min}, got "${value}"`);
  return n;
}

function profile(name: string, value: string | undefined): TimingProfile | undefined {
  if (value === undefined || value === '') return undefined;
  if (!(TIMING_PROFILES as readonly string[]).includes(value))
    throw new CliError(`${name} must be one of ${TIMING_PROFILES.join(', ')}, got "${value}"`);
  return value as TimingProfile;
}

/** `*` or a comma-separated list of origins (scheme://host[:port], no path), as a browser sends in `Origin`. */
function origins(name: string, value: string | undefined): string[] | '*' | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const items = value
    .split(',')
    .map((s) => s.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  if (items.includes('*')) return '*';
  for (const item of items)
    if (!/^https?:\/\/[^/\s]+$/.test(item))
      throw new CliError(`${name} must be * or comma-separated origins like http://localhost:5173, got "${item}"`);
  return items;
}

/** Comma-separated host names (no scheme, no port), or `*`. */
function hosts(name: string, value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const items = value
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const item of items)
    if (item !== '*' && !/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/.test(item))
      throw new CliError(
        `${name} must be comma-separated host names like devbox.local or 192.168.1.20 (no port), got "${item}"`,
      );
  return items;
}

function onOff(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  const v = value.trim().toLowerCase();
  if (['on', 'true', '1', 'yes'].includes(v)) return true;
  if (['off', 'false', '0', 'no'].includes(v)) return false;
  throw new CliError(`${name} must be on or off, got "${value}"`);
}

/** Like origins(), but `*` is refused: the plane is never open to every page. */
function controlOrigins(name: string, value: string | undefined): string[] | undefined {
  const list = origins(name, value);
  if (list === '*')
    throw new CliError(`${name} must list origins explicitly; * would let any web page drive the control plane`);
  return list;
}

const always = () => true;
const hasSeparator = (value: string) => value.includes('/') || value.includes('\\');

/** Which config-file options hold paths, and when a value is one (a scenario or ffmpeg may be a name instead). */
const PATH_OPTIONS = [
  ['stateFile', always],
  ['catalogue', always],
  ['calibration', always],
  ['scenario', isScenarioPath],
  ['ffmpegPath', hasSeparator],
] as const;

/**
 * Paths in a config file are relative to the file, as in tsconfig or compose files, so one config serves from any
 * working directory. A scenario name ("flaky-network") and an ffmpeg found on PATH ("ffmpeg") stay as written.
 */
function resolvePaths(options: Partial<CliOptions>, folder: string): Partial<CliOptions> {
  const resolved: Record<string, unknown> = { ...options };
  for (const [key, isPath] of PATH_OPTIONS) {
    const value = resolved[key];
    if (typeof value === 'string' && value !== '' && isPath(value)) resolved[key] = resolve(folder, value);
  }
  return resolved as Partial<CliOptions>;
}

function readConfigFile(path: string): Partial<CliOptions> {
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw new Error('the file must hold a JSON object');
    return resolvePaths(data as Partial<CliOptions>, dirname(resolve(path)));
  } catch (error) {
    throw new CliError(`config file ${path}: ${(error as Error).message}`);
  }
}

const defined = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

function parseFlags(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: FLAGS, allowPositionals: false, strict: true });
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

export function cliOptions(argv: string[], env: Record<string, string | undefined>): CliOptions | 'help' {
  const parsed = parseFlags(argv);
  const f = parsed.values;
  if (f.help) return 'help';
  const configPath = f.config ?? env.MEDIA_EMULATOR_CONFIG;
  const file = configPath ? readConfigFile(configPath) : {};
  const timingByModel: Record<string, TimingProfile> = { ...(file.timingByModel ?? {}) };
  for (const pair of f['timing-model'] ?? []) {
    const [slug, value] = pair.split('=');
    timingByModel[slug] = profile('--timing-model', value)!;
  }
  const fromEnv = defined({
    port: integer('PORT', env.PORT),
    host: env.HOST || undefined,
    apiKey: env.MEDIA_EMULATOR_API_KEY || undefined,
    initialBalance: integer('MEDIA_EMULATOR_BALANCE', env.MEDIA_EMULATOR_BALANCE),
    timing: profile('MEDIA_EMULATOR_TIMING', env.MEDIA_EMULATOR_TIMING),
    seed: integer('MEDIA_EMULATOR_SEED', env.MEDIA_EMULATOR_SEED),
    signingSecret: env.MEDIA_EMULATOR_SIGNING_SECRET || undefined,
    publicBaseUrl: env.MEDIA_EMULATOR_PUBLIC_URL || undefined,
    corsOrigins: origins('MEDIA_EMULATOR_CORS_ORIGINS', env.MEDIA_EMULATOR_CORS_ORIGINS),
    scenario: env.MEDIA_EMULATOR_SCENARIO || undefined,
    stateFile: env.MEDIA_EMULATOR_STATE_FILE || undefined,
    controlPlane: onOff('MEDIA_EMULATOR_CONTROL_PLANE', env.MEDIA_EMULATOR_CONTROL_PLANE),
    magicPrompts: onOff('MEDIA_EMULATOR_MAGIC_PROMPTS', env.MEDIA_EMULATOR_MAGIC_PROMPTS),
    adminToken: onOff('MEDIA_EMULATOR_NO_ADMIN_TOKEN', env.MEDIA_EMULATOR_NO_ADMIN_TOKEN)
      ? (false as const)
      : env.EMULATOR_ADMIN_TOKEN || undefined,
    allowedHosts: hosts('MEDIA_EMULATOR_ALLOWED_HOSTS', env.MEDIA_EMULATOR_ALLOWED_HOSTS),
    controlCorsOrigins: controlOrigins('MEDIA_EMULATOR_CONTROL_CORS_ORIGINS', env.MEDIA_EMULATOR_CONTROL_CORS_ORIGINS),
    renderTimeout: env.MEDIA_EMULATOR_RENDER_TIMEOUT || undefined,
    catalogue: env.MEDIA_EMULATOR_CATALOGUE || undefined,
    calibration: env.MEDIA_EMULATOR_CALIBRATION || undefined,
    urlTtlSeconds: integer('MEDIA_EMULATOR_URL_TTL', env.MEDIA_EMULATOR_URL_TTL, 1),
    outputLabel: (env.MEDIA_EMULATOR_OUTPUT_LABEL || undefined) as CliOptions['outputLabel'],
    ffmpegPath: env.FFMPEG_PATH || undefined,
  });
  const fromFlags = defined({
    port: integer('--port', f.port),
    host: f.host,
    apiKey: f['api-key'],
    initialBalance: integer('--balance', f.balance),
    timing: profile('--timing', f.timing),
    seed: integer('--seed', f.seed),
    signingSecret: f['signing-secret'],
    publicBaseUrl: f['public-url'],
    corsOrigins: origins('--cors-origins', f['cors-origins']),
    scenario: f.scenario,
    stateFile: f['state-file'],
    controlPlane: f['no-control-plane'] ? false : undefined,
    adminToken: f['no-admin-token'] ? (false as const) : undefined,
    allowedHosts: hosts('--allowed-hosts', f['allowed-hosts']),
    controlCorsOrigins: controlOrigins('--control-cors-origins', f['control-cors-origins']),
    renderTimeout: f['render-timeout'],
    magicPrompts: f['no-magic-prompts'] ? false : undefined,
    catalogue: f.catalogue,
    calibration: f.calibration,
    urlTtlSeconds: integer('--url-ttl', f['url-ttl'], 1),
    outputLabel: f['output-label'] as CliOptions['outputLabel'],
  });
  const port = fromFlags.port ?? fromEnv.port ?? file.port ?? DEFAULT_PORT;
  if (!Number.isSafeInteger(port) || port < 0 || port > 65_535)
    throw new CliError(`port must be a whole number from 0 to 65535 (0 picks a free one), got ${JSON.stringify(port)}`);
  return {
    timing: 'realistic',
    outputLabel: 'generation',
    ...file,
    ...fromEnv,
    ...fromFlags,
    timingByModel,
    port,
    host: fromFlags.host ?? fromEnv.host ?? file.host ?? DEFAULT_HOST,
  };
}

export const HELP = `media-gen-emulator: a local emulator of the media-generation API

Usage: media-gen-emulator [options]     (or: npm start -- [options])
       media-gen-emulator verify --help   (compare with the real service: docs/verify.md)

  --port N                 port (default ${DEFAULT_PORT}; env PORT)
  --host H                 bind address (default ${DEFAULT_HOST}; env HOST)
  --config FILE            JSON file of options (env MEDIA_EMULATOR_CONFIG)
  --api-key KEY            seeded key, sk-media-... (env MEDIA_EMULATOR_API_KEY)
  --balance N              seeded wallet balance (env MEDIA_EMULATOR_BALANCE)
  --timing P               realistic | fast | instant | manual (env MEDIA_EMULATOR_TIMING)
  --timing-model SLUG=P    per-model timing profile (repeatable)
  --seed N                 repeatable ids, jitter and probabilities (env MEDIA_EMULATOR_SEED); never the signing key
  --signing-secret S       HMAC key of output URLs, for the same links on every run (default random per state, new
                           on each reset and import; env MEDIA_EMULATOR_SIGNING_SECRET keeps it out of process lists)
  --public-url URL         base URL for signed links (env MEDIA_EMULATOR_PUBLIC_URL)
  --cors-origins LIST      * (default) or comma-separated origins allowed to call from a browser (env MEDIA_EMULATOR_CORS_ORIGINS)
  --scenario NAME|PATH     failure scenario to apply at start and after every reset, e.g. flaky-network (env MEDIA_EMULATOR_SCENARIO)
  --state-file FILE        load state from FILE at start if it exists, save it there on exit (env MEDIA_EMULATOR_STATE_FILE)
  --no-control-plane       no /_emulator/* routes except health (env MEDIA_EMULATOR_CONTROL_PLANE=off)
  --no-magic-prompts       treat [emulator:...] prompt markers as plain text (env MEDIA_EMULATOR_MAGIC_PROMPTS=off)
  EMULATOR_ADMIN_TOKEN     every /_emulator/* call except health and the console needs this token (environment only,
                           so it never shows in a process list); bound beyond loopback without one, a random token
                           is generated and printed with a console link
  --no-admin-token         keep the control plane open even when bound beyond loopback: anyone who can reach the port
                           controls the emulator (env MEDIA_EMULATOR_NO_ADMIN_TOKEN=1)
  --allowed-hosts LIST     extra Host names allowed to reach /_emulator/* and the console, besides localhost, 127.0.0.1,
                           [::1] and the --public-url host (env MEDIA_EMULATOR_ALLOWED_HOSTS)
  --control-cors-origins L origins a browser page may drive /_emulator/* from (default none; env MEDIA_EMULATOR_CONTROL_CORS_ORIGINS)
  --render-timeout D       longest one ffmpeg run, e.g. 30s (default 60s; env MEDIA_EMULATOR_RENDER_TIMEOUT)
  --catalogue FILE         your own catalogue JSON (env MEDIA_EMULATOR_CATALOGUE)
  --calibration FILE       what verify observed on the real service: statuses, codes, catalogue, prices (env MEDIA_EMULATOR_CALIBRATION)
  --url-ttl SECONDS        signed URL lifetime (env MEDIA_EMULATOR_URL_TTL)
  --output-label L         generation | request: what each output shows (env MEDIA_EMULATOR_OUTPUT_LABEL)
  FFMPEG_PATH              ffmpeg binary to use (else ffmpeg-static, else ffmpeg on PATH)
`;
