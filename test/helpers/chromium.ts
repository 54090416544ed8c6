// Launches Chromium through playwright-core for the browser tests: CHROMIUM_PATH, else the newer of the system's Chromium
// and the one @sparticuz/chromium ships (a devDependency, so `npm install` alone is enough); headless, quiet, fresh profile.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import {
  fontConfig,
  missingLibraries,
  missingLibrariesLine,
  shippedFontDirs,
  shippedLibraries,
  systemHasFonts,
} from './chromium-libraries.js';

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

export interface ChromiumBinary {
  path: string;
  origin: 'CHROMIUM_PATH' | 'system' | '@sparticuz/chromium';
  /** Where the shipped libraries are, when the machine lacks some the binary links (a slim image lacks NSS). */
  libraryPath?: string;
  /** Font folders for a machine with no fontconfig setup, where Chromium would otherwise draw no text at all. */
  fontDirs?: string[];
}

/**
 * The browser binary the tests launch, checked: on Linux, a binary that lacks shared libraries fails here in one line
 * naming them and the apt line, before playwright's 40-line launch log. The npm build is a brotli archive, decompressed
 * to the temp dir on first use (about 2.5 s, then reused), with its libraries and fonts when the machine lacks them:
 * test/helpers/global-setup.ts does that once, before test files run side by side.
 */
export async function chromiumExecutable(): Promise<ChromiumBinary> {
  const binary = await pickExecutable();
  if (process.platform !== 'linux') return binary;
  let missing = missingLibraries(binary.path);
  if (missing.length > 0 && binary.origin === '@sparticuz/chromium') {
    binary.libraryPath = await shippedLibraries();
    missing = missingLibraries(binary.path, binary.libraryPath);
  }
  if (missing.length > 0) throw new Error(missingLibrariesLine(binary.path, missing));
  if (binary.origin === '@sparticuz/chromium' && !systemHasFonts()) binary.fontDirs = await shippedFontDirs();
  return binary;
}

async function pickExecutable(): Promise<ChromiumBinary> {
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

/**
 * Fails (never skips) when Chromium is missing: a browser test that silently does not run proves nothing. `fontDirs`
 * gives it only those fonts, as on a machine with no fontconfig setup of its own.
 */
export async function launchChromium(options: { fontDirs?: string[] } = {}): Promise<Chromium> {
  const binary = await chromiumExecutable();
  const { path, libraryPath } = binary;
  const fontDirs = options.fontDirs ?? binary.fontDirs;
  // playwright refuses --user-data-dir in args; a persistent context on a fresh directory is the same thing.
  const profile = mkdtempSync(join(tmpdir(), 'emulator-chromium-'));
  const env: Record<string, string> = {};
  if (libraryPath) env.LD_LIBRARY_PATH = [libraryPath, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  if (fontDirs) {
    env.FONTCONFIG_FILE = join(profile, 'fonts.conf');
    writeFileSync(env.FONTCONFIG_FILE, fontConfig(fontDirs, join(profile, 'font-cache')));
  }
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: path,
    headless: true,
    env: { ...process.env, ...env } as Record<string, string>,
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
