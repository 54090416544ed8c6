// The handler pack's shape, on both hosts: its options, what createMediaHandlers resolves to, and msw's one handler.
import { http, type RequestHandler } from 'msw';
import type { CoreOptions } from '../config.js';
import type { PlaneOptions } from '../emulation/plane-options.js';
import type { Control } from '../emulation/client.js';
import type { ScenarioInput } from '../emulation/scenarios/scenario-schema.js';

/** startEmulator's options where they apply in a page or a test process (no port, files, ffmpeg or state file). */
export interface MediaHandlerOptions
  extends Pick<
    CoreOptions & PlaneOptions,
    | 'apiKey'
    | 'initialBalance'
    | 'catalogue'
    | 'timing'
    | 'timingByModel'
    | 'clock'
    | 'clockStart'
    | 'seed'
    | 'urlTtlSeconds'
    | 'signingSecret'
    | 'pollAfterSeconds'
    | 'idempotencyWindowHours'
    | 'errorStatuses'
    | 'errorCodes'
    | 'maxUploadStoreBytes'
    | 'maxStoreBytes'
    | 'outputLabel'
    | 'log'
    | 'magicPrompts'
    | 'corsOrigins'
  > {
  /**
   * The origin the handlers answer for (`http://api.example.test`): every request to it, and only those. In a browser
   * the page's origin by default (then only the service's paths: /v1/, /files/, /_emulator, /openapi.json, so the
   * page's own assets still load); required in Node.
   */
  baseUrl?: string;
  /** A scenario to start from (its JSON, or the object). */
  scenario?: ScenarioInput;
}

export interface BrowserOnlyOptions {
  /** Keep the wallet, generations and plane across reloads (IndexedDB, under `persistName`); default false. */
  persist?: boolean;
  /** The kept database's name on this origin (default `media-gen-emulator`): one per emulator on a page. */
  persistName?: string;
  /** Where the page fetches sql.js's `sql-wasm-browser.wasm` (your bundler's URL for it); default: beside sql.js. */
  wasmUrl?: string | URL;
  /** Where the shipped fallback clips come from when this browser cannot encode (default: the package's fixtures/). */
  fallbackUrl?: (name: 'fallback.mp4' | 'fallback.png' | 'fallback.m4a') => string | URL;
}

export interface MediaHandlers {
  /** For setupWorker(...handlers) or setupServer(...handlers): one handler answering every request to `baseUrl`. */
  handlers: RequestHandler[];
  /** The seeded API key: `Authorization: Bearer ${apiKey}`. */
  apiKey: string;
  /** The origin the handlers answer for. */
  baseUrl: string;
  /** The typed control client (faults, clock, scenarios, journal, accounts), in-process: no HTTP. */
  control: Control;
  /** Back to the seeded state (wallet, generations, plane), and the kept database with it. */
  reset(): Promise<void>;
  /** Stops timers and renders and closes the store (its last commit kept); the handlers answer no more. */
  close(): Promise<void>;
}

/** The service's own paths: the API, signed files, the plane (health included), the document. */
const SERVICE_PATH = /^\/(v1\/|files\/|_emulator(\/|$)|openapi\.json$)/;

/**
 * One msw handler for every method and path under `origin` (the front door answers 404 and 405 itself). `paths:
 * 'service'` claims only the service's own paths, for the page's own origin, whose scripts, styles and assets must
 * still reach its server.
 */
export function originHandler(
  origin: string,
  answer: (request: Request) => Promise<Response>,
  paths: 'all' | 'service' = 'all',
): RequestHandler {
  return http.all(
    ({ request }) => {
      const url = new URL(request.url);
      return url.origin === origin && (paths === 'all' || SERVICE_PATH.test(url.pathname));
    },
    ({ request }) => answer(request),
  );
}

/** The origin of `baseUrl`, refused in one sentence when it is not an http(s) URL. */
export function originOf(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(
      `baseUrl: "${baseUrl}" is not a URL; pass the origin the handlers answer for, like http://api.test.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`baseUrl: "${baseUrl}" is not http(s); pass an http:// or https:// origin.`);
  return url.origin;
}
