// Launches Debian's Chromium through playwright-core for the browser tests: headless, quiet on a closed network, fresh profile.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Without the networking flags Chromium keeps dialling Google services, and a closed network refuses each one, noisily and slowly. */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface Chromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Fails (never skips) when Chromium is missing: a browser test that silently does not run proves nothing. */
export async function launchChromium(): Promise<Chromium> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}. Install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH; the browser tests need a real browser.`,
    );
  // playwright refuses --user-data-dir in args; a persistent context on a fresh directory is the same thing.
  const profile = mkdtempSync(join(tmpdir(), 'emulator-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...FLAGS, '--autoplay-policy=no-user-gesture-required'],
    viewport: { width: 1440, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
