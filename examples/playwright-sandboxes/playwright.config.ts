// The Playwright recipe for sandboxes: two workers share one emulator, the CLI that Playwright starts (`webServer`).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { EMULATOR_PORT } from './fixtures.js';

/** In your project: node_modules/media-gen-emulator/dist/cli/main.js (what `npx media-gen-emulator` runs). */
const cli = process.env.EMULATOR_CLI ?? '../../dist/cli/main.js';

export default defineConfig({
  testDir: '.',
  workers: 2,
  fullyParallel: true, // the tests of one file, too, are spread over both workers and run at the same time
  forbidOnly: true,
  reporter: 'list',
  outputDir: join(tmpdir(), 'playwright-sandboxes-results'),
  timeout: 60_000,
  // One emulator for every worker; each worker makes its own sandbox in it (fixtures.ts). With EMULATOR_URL set (the
  // Docker image, a team's emulator) nothing is started.
  webServer: process.env.EMULATOR_URL
    ? undefined
    : {
        command: `node ${cli} --port ${EMULATOR_PORT} --seed 1`,
        url: `http://127.0.0.1:${EMULATOR_PORT}/_emulator/health`,
        reuseExistingServer: !process.env.CI,
        stdout: 'ignore',
      },
});
