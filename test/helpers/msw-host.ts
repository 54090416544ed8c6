// The test suite's second host: with EMULATOR_HOST=msw (vitest.msw.config.ts), every emulator a test makes is answered
// by the msw handler pack's fetch host under setupServer, and `emulator.app` is the origin supertest sends to.
import { readFile } from 'node:fs/promises';
import { setupServer } from 'msw/node';
import type { Emulator } from '../../src/index.js';
import { fetchHost } from '../../src/http/fetch/fetch-host.js';
import { originHandler } from '../../src/msw/media-handlers.js';
import { pipelineOf } from '../../src/testing.js';

export const mswHostOn = process.env.EMULATOR_HOST === 'msw';

/** One setupServer per test file (a fork): requests to an emulator's origin are answered, any other goes out. */
let server: ReturnType<typeof setupServer> | undefined;
let served = 0;

/**
 * Serves `emulator` through msw: its `app` becomes `http://127.0.0.1:<n>`, an origin no server listens on, so a
 * request msw did not answer fails at once (ECONNREFUSED) instead of reaching another host.
 */
export function servedByMsw(emulator: Emulator): Emulator {
  if (!server) {
    server = setupServer();
    server.listen({ onUnhandledFrame: 'bypass' });
  }
  const origin = `http://127.0.0.1:${9 + served++}`;
  const answer = fetchHost(pipelineOf(emulator), {
    readFile: async (body) => (await readFile(body.path)).subarray(body.start, body.end + 1),
    log: emulator.options.log,
  });
  server.use(originHandler(origin, answer));
  // supertest's request(app) takes an origin as well as a listener.
  Object.defineProperty(emulator, 'app', { value: origin });
  return emulator;
}
