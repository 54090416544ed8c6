// The public-API suite again, every emulator answered by the msw handler pack under setupServer (test/helpers/msw-host.ts):
// `npm run test:msw-host` (Node 22.12+, msw 3's floor). Files that need a socket of their own are left to the Node host.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// Spread, not mergeConfig: mergeConfig would append this include to the base's (the whole suite).
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/api/**/*.test.ts', 'test/scenarios/**/*.test.ts', 'test/generated-client/**/*.test.ts'],
    exclude: [
      // Raw sockets, Node's HTTP parser, connection limits and timeouts: the Node host's own behaviour.
      'test/api/protocol.test.ts',
      'test/api/refused-connections.test.ts',
      'test/api/request-encodings.test.ts',
      // startEmulator on a port, and the real FastAPI compared over HTTP.
      'test/api/start-options.test.ts',
      'test/api/fastapi-conformance.test.ts',
      // Builds its own emulators over a browser's store with composeEmulator, answered by Node's listener.
      'test/api/host-services.test.ts',
    ],
    env: { EMULATOR_HOST: 'msw' },
  },
});
