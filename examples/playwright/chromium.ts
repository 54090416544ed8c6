// Launches Chromium for the example through playwright-core: CHROMIUM_PATH, else the system's, else the npm-shipped one.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** A Chromium installed on the machine (Debian's package, or Ubuntu's) is used when there is one. */
const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/**
 * Without a system browser, @sparticuz/chromium (a devDependency: a Chromium build inside an npm package, so nothing is
 * downloaded at install or run time) unpacks its binary to the temp dir on first use, in about 2.5 s, then reuses it.
 */
export async function executablePath(): Promise<string> {
  const explicit = process.env.CHROMIUM_PATH;
  if (explicit) {
    if (!existsSync(explicit)) throw new Error(`CHROMIUM_PATH=${explicit} does not exist. Unset it or fix the path.`);
    return explicit;
  }
  const system = SYSTEM_CHROMIUM.find((path) => existsSync(path));
  if (system) return system;
  const { default: shipped } = await import('@sparticuz/chromium');
  return shipped.executablePath();
}

/** Quiet on a closed network, and videos may start without a click. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--autoplay-policy=no-user-gesture-required',
];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: await executablePath(), headless: true, args: CHROMIUM_ARGS });
}
