// media-gen-emulator/msw in a browser (setupWorker: a page, Storybook): the emulator as msw handlers, no server.
import shippedCatalogue from '../../fixtures/catalogue.json' with { type: 'json' };
import contentPolicyRefund from '../../fixtures/scenarios/content-policy-refund.json' with { type: 'json' };
import dailyCeiling from '../../fixtures/scenarios/daily-ceiling.json' with { type: 'json' };
import expiredUrls from '../../fixtures/scenarios/expired-urls.json' with { type: 'json' };
import failureNoRefund from '../../fixtures/scenarios/failure-no-refund.json' with { type: 'json' };
import flakyNetwork from '../../fixtures/scenarios/flaky-network.json' with { type: 'json' };
import insufficientCredits from '../../fixtures/scenarios/insufficient-credits.json' with { type: 'json' };
import lostResponseRetry from '../../fixtures/scenarios/lost-response-retry.json' with { type: 'json' };
import rateLimited from '../../fixtures/scenarios/rate-limited.json' with { type: 'json' };
import slowQueue from '../../fixtures/scenarios/slow-queue.json' with { type: 'json' };
import stalledGeneration from '../../fixtures/scenarios/stalled-generation.json' with { type: 'json' };
import { parseCatalogue } from '../domain/catalogue.js';
import { memoryShelf } from '../emulation/scenarios/scenario-shelf.js';
import { fetchHost } from '../http/fetch/fetch-host.js';
import { composeBrowserEmulator } from './browser-emulator.js';
import {
  type BrowserOnlyOptions,
  type MediaHandlerOptions,
  type MediaHandlers,
  originHandler,
  originOf,
} from './media-handlers.js';

export type { BrowserOnlyOptions, MediaHandlerOptions, MediaHandlers } from './media-handlers.js';

/** fixtures/scenarios/, bundled: a few kilobytes, so the shipped names load in a page as they do on Node. */
const SHIPPED_SCENARIOS = {
  'content-policy-refund': contentPolicyRefund,
  'daily-ceiling': dailyCeiling,
  'expired-urls': expiredUrls,
  'failure-no-refund': failureNoRefund,
  'flaky-network': flakyNetwork,
  'insufficient-credits': insufficientCredits,
  'lost-response-retry': lostResponseRetry,
  'rate-limited': rateLimited,
  'slow-queue': slowQueue,
  'stalled-generation': stalledGeneration,
};

/**
 * fixtures/ is two folders above this module in src/msw/ and in dist/msw/ (the pack's bundle): literal
 * `new URL(…, import.meta.url)` calls, which Vite and webpack turn into assets of the page.
 */
function shippedFallbackUrl(name: 'fallback.mp4' | 'fallback.png' | 'fallback.m4a'): URL {
  if (name === 'fallback.png') return new URL('../../fixtures/fallback.png', import.meta.url);
  if (name === 'fallback.m4a') return new URL('../../fixtures/fallback.m4a', import.meta.url);
  return new URL('../../fixtures/fallback.mp4', import.meta.url);
}

/** The first internal error is logged with its stack; later ones would repeat it, so each message is logged once. */
function logOnce(log: (line: string) => void): (line: string) => void {
  const seen = new Set<string>();
  return (line) => {
    const key = line.split('\n', 1)[0];
    if (seen.size < 100 && seen.has(key)) return;
    if (seen.size < 100) seen.add(key);
    log(line);
  };
}

/**
 * The emulator as msw handlers for `setupWorker(...handlers)`: answers every request to `baseUrl` (the page's origin
 * by default) from a store in the page (sql.js; kept in IndexedDB with `persist: true`), with MP4s encoded by WebCodecs,
 * or the shipped fallback clip, with one warning, where this browser cannot encode.
 */
export async function createMediaHandlers(
  options: MediaHandlerOptions & BrowserOnlyOptions = {},
): Promise<MediaHandlers> {
  const pageOrigin = (globalThis as { location?: { origin?: string } }).location?.origin;
  const baseUrl = options.baseUrl ?? pageOrigin;
  if (!baseUrl) throw new TypeError('baseUrl: this page has no origin to default to; pass the origin to answer for.');
  const origin = originOf(baseUrl);
  const log = logOnce(options.log ?? ((line) => console.warn(`[media-gen-emulator] ${line}`)));
  const catalogue = parseCatalogue(
    options.catalogue === undefined || typeof options.catalogue === 'string' ? shippedCatalogue : options.catalogue,
    'catalogue option',
  );
  const fallbackUrl = options.fallbackUrl ?? shippedFallbackUrl;
  const emulator = await composeBrowserEmulator({
    options: { ...options, log, publicBaseUrl: origin },
    catalogue,
    scenarios: memoryShelf(SHIPPED_SCENARIOS),
    pageOrigin,
    loadFallback: async (name) => {
      const response = await fetch(fallbackUrl(name));
      if (!response.ok) throw new Error(`the fallback file ${name} answered ${response.status}; pass fallbackUrl`);
      return new Uint8Array(await response.arrayBuffer());
    },
  });
  const served = fetchHost(emulator.pipeline, { log });
  // An answered change survives a reload, as the server's survives kill -9: the answer waits for the image's write
  // (a failed write is said once through the log, and the next commit tries again).
  const answer = async (request: Request) => {
    const response = await served(request);
    await emulator.kept().catch(() => undefined);
    return response;
  };
  return {
    // On the page's own origin only the service's paths are answered: the page's assets still load from its server.
    handlers: [originHandler(origin, answer, origin === pageOrigin ? 'service' : 'all')],
    apiKey: emulator.apiKey,
    baseUrl: origin,
    control: emulator.control,
    reset: emulator.reset,
    close: emulator.close,
  };
}
