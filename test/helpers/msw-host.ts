// The test suite's second host: with EMULATOR_HOST=msw (vitest.msw.config.ts), every emulator a test makes is answered
// by the msw handler pack's fetch host under setupServer, and `emulator.app` is the origin supertest sends to.
import { readFile } from 'node:fs/promises';
import type { Emulator } from '../../src/index.js';
import { fetchHost } from '../../src/http/fetch/fetch-host.js';
import { originHandler, originOf } from '../../src/msw/media-handlers.js';
import { pipelineOf } from '../../src/testing.js';

export const mswHostOn = process.env.EMULATOR_HOST === 'msw';
/** msw is loaded only under the msw host: every other test file (and Node 20, below msw 3's floor) never loads it. */
const msw = mswHostOn ? await import('msw/node') : undefined;

/** One setupServer per test file (a fork): requests to an emulator's origin are answered, any other goes out. */
let server: ReturnType<NonNullable<typeof msw>['setupServer']> | undefined;
let served = 0;

/**
 * Serves `emulator` through msw: its `app` becomes `http://127.0.0.1:<n>` (n a privileged port no test server
 * listens on), so a request msw did not answer fails at once (ECONNREFUSED) instead of reaching another host.
 */
export function servedByMsw(emulator: Emulator): Emulator {
  // A privileged port no test server listens on, never 80 or 443 (the URL would drop a default port).
  served += served === 79 || served === 442 ? 2 : 1;
  if (served > 1023) throw new Error('more than 1,000 emulators in one test file: give msw-host.ts more origins');
  const origin = originOf(`http://127.0.0.1:${served}`);
  answerOrigin(emulator, origin);
  // supertest's request(app) takes an origin as well as a listener.
  Object.defineProperty(emulator, 'app', { value: origin });
  return emulator;
}

/** Answers every request to `origin` with `emulator`'s pipeline through the fetch host, under this file's setupServer. */
export function answerOrigin(emulator: Emulator, origin: string): void {
  if (!msw) throw new Error('answerOrigin() runs under the msw host only (EMULATOR_HOST=msw, vitest.msw.config.ts)');
  if (!server) {
    server = msw.setupServer();
    server.listen({ onUnhandledFrame: 'bypass' });
  }
  const answer = fetchHost(pipelineOf(emulator), {
    readFile: async (body) => (await readFile(body.path)).subarray(body.start, body.end + 1),
    log: emulator.options.log,
  });
  server.use(originHandler(originOf(origin), answer));
}
