// Launches Chromium through playwright-core for the browser tests: CHROMIUM_PATH, else the newer of the system's Chromium
// and the one @sparticuz/chromium ships (a devDependency, so `npm install` alone is enough); headless, quiet, fresh profile.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** The major version a browser binary reports ("Chromium 156.0.8078.73"), or 0 when it does not run. */
function majorVersion(path: string): number {
  try {
    const out = execFileSync(path, ['--version'], {
      encoding: 'utf8',
      timeout: 15_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return Number(/(\d+)\.\d+\.\d+/.exec(out)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The shipped build's major version is the package's (153.0.0 ships Chromium 153); its exports hide package.json. */
function shippedMajor(): number {
  const entry = createRequire(import.meta.url).resolve('@sparticuz/chromium');
  const pkg = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
  return Number(pkg.version.split('.')[0]);
}

/**
 * The browser binary the tests launch. The npm build is a brotli archive, decompressed to the temp dir on first use
 * (about 2.5 s, then reused): test/helpers/global-setup.ts does that once, before test files run side by side.
 */
export async function chromiumExecutable(): Promise<{ path: string; origin: string }> {
  const explicit = process.env.CHROMIUM_PATH;
  if (explicit) {
    if (!existsSync(explicit)) throw new Error(`CHROMIUM_PATH=${explicit} does not exist. Unset it or fix the path.`);
    return { path: explicit, origin: 'CHROMIUM_PATH' };
  }
  const system = SYSTEM_CHROMIUM.find((path) => existsSync(path));
  if (system && majorVersion(system) >= shippedMajor()) return { path: system, origin: 'system' };
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    if (system) return { path: system, origin: 'system' };
    throw new Error(
      `no Chromium: @sparticuz/chromium ships a Linux x64 build only, and this is ${process.platform}-${process.arch}. ` +
        'Set CHROMIUM_PATH to a Chrome or Chromium binary; the browser tests need a real browser.',
    );
  }
  try {
    const { default: Shipped } = await import('@sparticuz/chromium');
    return { path: await Shipped.executablePath(), origin: '@sparticuz/chromium' };
  } catch (error) {
    throw new Error(
      `no Chromium: none on this system and @sparticuz/chromium (a devDependency) did not unpack (${(error as Error).message}). ` +
        'Run npm install, or set CHROMIUM_PATH; the browser tests need a real browser.',
    );
  }
}

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
  const { path } = await chromiumExecutable();
  // playwright refuses --user-data-dir in args; a persistent context on a fresh directory is the same thing.
  const profile = mkdtempSync(join(tmpdir(), 'emulator-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: path,
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
