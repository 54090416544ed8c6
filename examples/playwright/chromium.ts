// Launches Chromium for the example through playwright-core: Debian's /usr/bin/chromium or CHROMIUM_PATH, never a download.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}. Install it (Debian/Ubuntu: apt-get install -y chromium) or set CHROMIUM_PATH to a Chrome or Chromium binary.`,
    );
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // Quiet on a closed network, and videos may start without a click.
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}
