// The emulator's options: one typed object, its defaults, and nothing read from the environment (that is cli/'s job).
import type { Catalogue } from './domain/catalogue.js';
import type { CatalogueFile } from './domain/catalogue-schema.js';
import type { TimingProfile } from './domain/timing.js';
import { DEFAULT_MAX_STORE_BYTES } from './infra/renderer.js';

/** The service core's options; the public EmulatorOptions (emulator-options.ts) adds the plane's (emulation/plane-options.ts) and verify's. */
export interface CoreOptions {
  /** Seeded key secret, `sk-media-...`. */
  apiKey?: string;
  /** Seeded wallet balance in credits. */
  initialBalance?: number;
  /** A catalogue file path, or catalogue data; default fixtures/catalogue.json. */
  catalogue?: string | CatalogueFile;
  /** Global timing profile: `fast` by default in-process, `realistic` from the CLI. */
  timing?: TimingProfile;
  /** Per-model overrides, e.g. { "keyframe-pro-v2": "manual" }. */
  timingByModel?: Record<string, TimingProfile>;
  /** `real` (default) follows the wall clock; `frozen` stands still until advanced. Frozen by default with `timing: 'manual'`. */
  clock?: 'real' | 'frozen';
  /** Where a frozen clock starts (ISO 8601 or ms since epoch); default now. */
  clockStart?: string | number;
  /** Makes ids sequential and jitter, probabilities and secrets repeatable. */
  seed?: number;
  /** Base URL written into signed output links, e.g. http://localhost:8787 behind a port mapping. Default: from the request (X-Forwarded-* honoured). */
  publicBaseUrl?: string;
  /** Origins a browser app may call from: `'*'` (default) or a list such as ['http://localhost:5173']. */
  corsOrigins?: string[] | '*';
  /** Lifetime of signed output URLs; default 3600. */
  urlTtlSeconds?: number;
  /** HMAC secret for output URLs, for the same links on every run; default random. Rotated on reset and import. */
  signingSecret?: string;
  pollAfterSeconds?: number;
  /** How long an Idempotency-Key is remembered, in hours of emulator time; default 24. */
  idempotencyWindowHours?: number;
  /** Overrides of the error-code-to-status table, e.g. { insufficient_credits: 400 }. */
  errorStatuses?: Record<string, number>;
  /** Renames of error codes in answers, e.g. { insufficient_credits: "balance_too_low" }; statuses still key on the emulator's code. */
  errorCodes?: Record<string, string>;
  /** ffmpeg binary; `false` forces fixture outputs. Resolution order: this, `ffmpeg` on PATH, ffmpeg-static, the npm-shipped static build. */
  ffmpegPath?: string | false;
  maxParallelRenders?: number;
  /** Most sandboxes (worlds beside the default one) alive at once; past it, 429 sandbox_limit_reached. Default 1000. */
  maxSandboxes?: number;
  /** Longest one ffmpeg process may run (a duration such as "3s", or ms); then its process group is killed and the generation fails with render_failed, refunded. Default 60s. */
  renderTimeout?: string | number;
  /** Byte cap of reference uploads kept on disk; an upload past it is refused with 507 upload_storage_full. Default 1 GiB. */
  maxUploadStoreBytes?: number;
  /** Longest a request's headers may take to arrive (a duration such as "10s", or ms); then Node answers 408 and closes. Default 10s, at most 5m. */
  headersTimeout?: string | number;
  /** Longest a request body may go without a byte (a duration, or ms); then it is answered 408 request_timeout and its connection closed. Default 30s, at most 5m. */
  bodyTimeout?: string | number;
  /** Bytes the request bodies being read (and the requests holding them) may take at once; past it, 503 server_busy with Retry-After. Default 64 MiB. */
  maxBufferedBodyBytes?: number;
  /** Byte cap of stored outputs before expired ones are evicted; default 512 MiB. */
  maxStoreBytes?: number;
  /** Directory for rendered files; default a fresh temporary directory removed on close(). */
  storageDir?: string;
  /** What identifies an output in its picture: the generation id, or a request fingerprint so identical requests share one render. */
  outputLabel?: 'generation' | 'request';
  /** Where log lines go; default silent in-process, stdout from the CLI. */
  log?: (line: string) => void;
  /** SQLite database holding the whole state: loaded at start when it exists, every acknowledged change committed to it. */
  stateFile?: string;
  /**
   * How the state file's commits reach the disk. `normal` (default): an acknowledged change survives kill -9, and a
   * power loss may take the last moments' changes; `full`: an fsync per commit, so it survives a power loss too.
   */
  stateSync?: 'normal' | 'full';
}

export const DEFAULT_API_KEY = 'sk-media-local-emulator-key';
export const DEFAULT_BALANCE = 1_000_000;
export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = '127.0.0.1';
/** Far above any real render here (a few seconds), short enough that a stalled ffmpeg frees its slot. */
export const DEFAULT_RENDER_TIMEOUT = '60s';
/** Loopback headers arrive at once; a client that has not sent its headers in 10 s is gone or hostile. */
export const DEFAULT_HEADERS_TIMEOUT = '10s';
/** A body that pauses this long has stalled: a front proxy (nginx's client_body_timeout is 60 s) would cut it too. */
export const DEFAULT_BODY_TIMEOUT = '30s';
/** Five uploads of the largest file (10 MiB, about 12 MiB held with its fields), or four JSON bodies of 16 MiB, at once. */
export const DEFAULT_MAX_BUFFERED_BODY_BYTES = 64 * 1024 * 1024;
/** Node's requestTimeout: a whole request (headers and body) must arrive within it, so neither timeout goes past it. */
export const MAX_REQUEST_TIMEOUT_MS = 300_000;
/** Host names that always reach the plane: loopback only, which DNS rebinding cannot produce. */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h === '::1' || h === '[::1]' || h.startsWith('127.');
}

/** An option value that can only be checked against what the emulator loaded (its catalogue); the CLI exits 2 on it. */
/** Enough for a thousand parallel workers, and bounded (each idle sandbox costs some 100 KB). */
export const DEFAULT_MAX_SANDBOXES = 1000;

export class OptionError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'OptionError';
  }
}

/** A per-model timing for a model the catalogue lacks is refused, as a timing change at run time refuses it. */
export function refuseUnknownTimingModels(timingByModel: Record<string, unknown>, catalogue: Catalogue): void {
  const unknown = Object.keys(timingByModel).filter((slug) => !catalogue.get(slug));
  if (unknown.length === 0) return;
  const slugs = catalogue.models.map((model) => model.slug);
  const known = slugs.length > 12 ? `${slugs.slice(0, 12).join(', ')}, ...` : slugs.join(', ');
  throw new OptionError(
    `timingByModel (--timing-model): no model ${unknown.map((slug) => `'${slug}'`).join(', ')} in the catalogue; its models are ${known}.`,
  );
}

type OptionalOptions =
  | 'seed'
  | 'publicBaseUrl'
  | 'signingSecret'
  | 'storageDir'
  | 'clockStart'
  | 'catalogue'
  | 'stateFile';

export type ResolvedOptions = Required<Omit<CoreOptions, OptionalOptions>> & Pick<CoreOptions, OptionalOptions>;

export function resolveOptions(options: CoreOptions): ResolvedOptions {
  const timing = options.timing ?? 'fast';
  return {
    ...options,
    apiKey: options.apiKey ?? DEFAULT_API_KEY,
    initialBalance: options.initialBalance ?? DEFAULT_BALANCE,
    timing,
    timingByModel: options.timingByModel ?? {},
    clock: options.clock ?? (timing === 'manual' ? 'frozen' : 'real'),
    corsOrigins: options.corsOrigins ?? '*',
    urlTtlSeconds: options.urlTtlSeconds ?? 3600,
    pollAfterSeconds: options.pollAfterSeconds ?? 5,
    idempotencyWindowHours: options.idempotencyWindowHours ?? 24,
    errorStatuses: options.errorStatuses ?? {},
    errorCodes: options.errorCodes ?? {},
    ffmpegPath: options.ffmpegPath ?? '',
    maxParallelRenders: options.maxParallelRenders ?? 0,
    maxSandboxes: options.maxSandboxes ?? DEFAULT_MAX_SANDBOXES,
    renderTimeout: options.renderTimeout ?? DEFAULT_RENDER_TIMEOUT,
    headersTimeout: options.headersTimeout ?? DEFAULT_HEADERS_TIMEOUT,
    bodyTimeout: options.bodyTimeout ?? DEFAULT_BODY_TIMEOUT,
    maxBufferedBodyBytes: options.maxBufferedBodyBytes ?? DEFAULT_MAX_BUFFERED_BODY_BYTES,
    maxStoreBytes: options.maxStoreBytes ?? DEFAULT_MAX_STORE_BYTES,
    maxUploadStoreBytes: options.maxUploadStoreBytes ?? 1024 * 1024 * 1024,
    outputLabel: options.outputLabel ?? 'request',
    log: options.log ?? (() => {}),
    stateSync: options.stateSync ?? 'normal',
  };
}
