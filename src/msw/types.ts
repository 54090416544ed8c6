// The types of media-gen-emulator/msw, one declaration for both builds: Node's (dist/msw/node.js) and the browser's bundle.
import type { BrowserOnlyOptions, MediaHandlerOptions, MediaHandlers } from './media-handlers.js';

export type { BrowserOnlyOptions, MediaHandlerOptions, MediaHandlers } from './media-handlers.js';

/**
 * The emulator as msw handlers: `setupWorker(...handlers)` in a browser, `setupServer(...handlers)` in Node (where
 * `baseUrl` is required and the browser-only options are ignored). docs/msw.md.
 */
export declare function createMediaHandlers(options?: MediaHandlerOptions & BrowserOnlyOptions): Promise<MediaHandlers>;
