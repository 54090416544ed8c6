// media-gen-emulator/msw under Node (setupServer: vitest with jsdom or happy-dom, no socket): Node's host, ffmpeg renders.
import { readFile } from 'node:fs/promises';
import { composeEmulator } from '../emulator.js';
import { fetchHost } from '../http/fetch/fetch-host.js';
import { type MediaHandlerOptions, type MediaHandlers, originHandler, originOf } from './media-handlers.js';

export type { MediaHandlerOptions, MediaHandlers } from './media-handlers.js';

/**
 * The emulator as msw handlers for `setupServer`: the same composition as the server (node:sqlite, the ffmpeg
 * renderer, uploads on disk), answering fetch Requests for `baseUrl` in-process. Its signed links name `baseUrl`.
 */
export async function createMediaHandlers(options: MediaHandlerOptions): Promise<MediaHandlers> {
  const { baseUrl, ...rest } = options;
  if (!baseUrl) throw new TypeError('baseUrl: required in Node (there is no page origin); pass e.g. http://api.test.');
  const origin = originOf(baseUrl);
  const { emulator, pipeline } = composeEmulator({ ...rest, publicBaseUrl: origin });
  await emulator.start();
  const answer = fetchHost(pipeline, {
    readFile: async (body) => (await readFile(body.path)).subarray(body.start, body.end + 1),
    log: emulator.options.log,
  });
  return {
    handlers: [originHandler(origin, answer)],
    apiKey: emulator.apiKey,
    baseUrl: origin,
    control: emulator.control,
    reset: emulator.reset,
    close: emulator.close,
  };
}
