// Playwright fixtures: a sandbox for each worker (its own wallet, fault rules, journal and clock) and the clip maker
// page (../playwright/app) calling the emulator with that sandbox's API key.
import { test as base, type Page } from '@playwright/test';
import { connectEmulator, type SandboxHandle } from 'media-gen-emulator';
import { CHROMIUM_ARGS, executablePath } from '../playwright/chromium.js';
import { serveApp } from '../playwright/static-server.js';

export const EMULATOR_PORT = Number(process.env.EMULATOR_PORT ?? 8790);
export const EMULATOR_URL = process.env.EMULATOR_URL ?? `http://127.0.0.1:${EMULATOR_PORT}`;

export const test = base.extend<{ openApp: () => Promise<Page> }, { sandbox: SandboxHandle; appOrigin: string }>({
  sandbox: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads which fixtures a fixture needs from this pattern
    async ({}, use, workerInfo) => {
      const emulator = connectEmulator(EMULATOR_URL, { adminToken: process.env.EMULATOR_ADMIN_TOKEN });
      // Manual timing: generations move only when the test moves this sandbox's clock (waitFor, advance).
      const sandbox = await emulator.createSandbox({
        label: `playwright worker ${workerInfo.workerIndex}`,
        balance: 10_000,
        timing: { profile: 'manual' },
      });
      await use(sandbox);
      await sandbox.close(); // deleted: its API key answers 401 from now on
    },
    { scope: 'worker' },
  ],

  // Chromium from CHROMIUM_PATH, the system or the @sparticuz/chromium package: nothing is downloaded.
  launchOptions: [
    // biome-ignore lint/correctness/noEmptyPattern: as above
    async ({}, use) => use({ executablePath: await executablePath(), args: CHROMIUM_ARGS }),
    { scope: 'worker' },
  ],

  // The page's own server on a free loopback port: another origin than the emulator, as in real life.
  appOrigin: [
    // biome-ignore lint/correctness/noEmptyPattern: as above
    async ({}, use) => {
      const app = await serveApp();
      await use(app.origin);
      await app.close();
    },
    { scope: 'worker' },
  ],

  openApp: async ({ page, sandbox, appOrigin }, use) => {
    await use(async () => {
      const query = new URLSearchParams({ api: EMULATOR_URL, key: sandbox.apiKey, poll: '100' });
      await page.goto(`${appOrigin}/?${query}`);
      return page;
    });
  },
});

export { expect } from '@playwright/test';
