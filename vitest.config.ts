// Test runner settings: node environment, generous timeouts for real ffmpeg and browser tests.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Unit tests sit beside the store they test in src/ (tsconfig.build.json keeps them out of dist/).
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/helpers/global-setup.ts'],
  },
});
