// Test runner settings: node environment, generous timeouts for real ffmpeg and browser tests.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Every test lives under test/ (unit tests in test/unit/, mirroring src/), so src/ is only what ships.
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/helpers/global-setup.ts'],
  },
});
